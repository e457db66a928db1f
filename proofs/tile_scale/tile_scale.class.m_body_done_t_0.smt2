; loom verify obligation class.%m_body_done_t_0 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun j_L0 () Int)
(declare-fun index_4 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (= N_L0 2))
(assert
 (let (($t1 (bvslt (_ bv0 64) (_ bv2 64))))
 (let (($t2 (>= N_L0 1)))
 (= $t2 $t1))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t3 (index_4 j_L0)))
 (let (($t4 (= (_ bv0 64) ?t3)))
 (let (($t5 (= j_L0 0)))
 (=> $t5 $t4)))))
(assert
 (let ((?t3 (index_4 j_L0)))
 (let (($t6 (bvsle (_ bv0 64) ?t3)))
 (let (($t7 (<= j_L0 N_L0)))
 (=> $t7 $t6)))))
(assert
 (let ((?t3 (index_4 j_L0)))
 (let (($t8 (bvsgt (_ bv2 64) ?t3)))
 (let (($t9 (< j_L0 N_L0)))
 (=> $t9 $t8)))))
(assert
 (let ((?t3 (index_4 j_L0)))
 (let (($t8 (bvsgt (_ bv2 64) ?t3)))
 (let (($t10 (not $t8)))
 (let (($t11 (= j_L0 N_L0)))
 (=> $t11 $t10))))))
(assert
 (let ((?t12 (- N_L0 1)))
(let (($t13 (< j_L0 ?t12)))
(let (($t9 (< j_L0 N_L0)))
(let (($t14 (and $t9 $t13)))
(xor $t14 $t14))))))
(check-sat)
