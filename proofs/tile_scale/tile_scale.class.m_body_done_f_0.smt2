; loom verify obligation class.%m_body_done_f_0 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(assert
 (>= N_L0 0))
(assert
 (= N_L0 2))
(assert
 (let (($x5599 (bvslt (_ bv0 64) (_ bv2 64))))
 (let (($x5513 (>= N_L0 1)))
 (= $x5513 $x5599))))
(assert
 (let (($x5513 (>= N_L0 1)))
(let (($x5747 (and $x5513)))
(xor $x5747 $x5747))))
(check-sat)
