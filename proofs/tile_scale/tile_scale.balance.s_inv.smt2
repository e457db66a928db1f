; loom verify obligation balance.%s_inv of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(assert
 (let (($x5513 (>= N_L0 1)))
(let (($x5747 (and $x5513)))
(let (($x5745 (xor $x5747 true)))
(let (($x5599 (bvslt (_ bv0 64) (_ bv2 64))))
(let (($x5725 (= $x5513 $x5599)))
(let (($x5730 (= N_L0 2)))
(let (($x5742 (>= N_L0 0)))
(let (($x5577 (and $x5742 $x5730 $x5725 $x5745)))
(or $x5577))))))))))
(check-sat)
