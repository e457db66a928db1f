; loom verify obligation balance.%s_inv of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(assert
 (let (($t1 (>= N_L0 1)))
(let (($t2 (and $t1)))
(let (($t3 (xor $t2 true)))
(let (($t4 (bvslt (_ bv0 64) (_ bv2 64))))
(let (($t5 (= $t1 $t4)))
(let (($t6 (= N_L0 2)))
(let (($t7 (>= N_L0 0)))
(let (($t8 (and $t7 $t6 $t5 $t3)))
(or $t8))))))))))
(check-sat)
