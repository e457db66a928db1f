; loom verify obligation balance.%st_m_data_0 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(assert
 (let (($t1 (>= N_L0 1)))
(let (($t2 (and $t1)))
(let (($t3 (xor true $t2)))
(let (($t4 (bvslt (_ bv0 64) (_ bv2 64))))
(let (($t5 (= $t1 $t4)))
(let (($t6 (= N_L0 2)))
(let (($t7 (>= N_L0 0)))
(let (($t8 (and $t7 $t6 $t5 $t3)))
(let (($t9 (xor true true)))
(let (($t10 (and $t9)))
(or $t10 $t10 $t8))))))))))))
(check-sat)
