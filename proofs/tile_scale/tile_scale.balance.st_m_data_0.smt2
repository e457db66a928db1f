; loom verify obligation balance.%st_m_data_0 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(assert
 (let (($x5513 (>= N_L0 1)))
(let (($x5747 (and $x5513)))
(let (($x4888 (xor true $x5747)))
(let (($x5599 (bvslt (_ bv0 64) (_ bv2 64))))
(let (($x5725 (= $x5513 $x5599)))
(let (($x5730 (= N_L0 2)))
(let (($x5742 (>= N_L0 0)))
(let (($x5111 (and $x5742 $x5730 $x5725 $x4888)))
(let (($x5582 (xor true true)))
(let (($x5627 (and $x5582)))
(or $x5627 $x5627 $x5111))))))))))))
(check-sat)
