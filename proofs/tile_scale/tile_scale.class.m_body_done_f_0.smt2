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
 (let (($t1 (bvslt (_ bv0 64) (_ bv2 64))))
 (let (($t2 (>= N_L0 1)))
 (= $t2 $t1))))
(assert
 (let (($t2 (>= N_L0 1)))
(let (($t3 (and $t2)))
(xor $t3 $t3))))
(check-sat)
