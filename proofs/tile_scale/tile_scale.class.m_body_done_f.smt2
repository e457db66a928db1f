; loom verify obligation class.%m_body_done_f of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun N_L0 () Int)
(declare-fun index_4 (Int) (_ BitVec 64))
(assert
 (let ((?t1 (N_L1 j_L0)))
 (>= ?t1 0)))
(assert
 (let ((?t1 (N_L1 j_L0)))
 (= ?t1 3)))
(assert
 (let (($t2 (bvslt (_ bv0 64) (_ bv3 64))))
 (let ((?t1 (N_L1 j_L0)))
 (let (($t3 (>= ?t1 1)))
 (= $t3 $t2)))))
(assert
 (>= N_L0 0))
(assert
 (= N_L0 2))
(assert
 (let (($t4 (bvslt (_ bv0 64) (_ bv2 64))))
 (let (($t5 (>= N_L0 1)))
 (= $t5 $t4))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t6 (index_4 j_L0)))
 (let (($t7 (= (_ bv0 64) ?t6)))
 (let (($t8 (= j_L0 0)))
 (=> $t8 $t7)))))
(assert
 (let ((?t6 (index_4 j_L0)))
 (let (($t9 (bvsle (_ bv0 64) ?t6)))
 (let (($t10 (<= j_L0 N_L0)))
 (=> $t10 $t9)))))
(assert
 (let ((?t6 (index_4 j_L0)))
 (let (($t11 (bvsgt (_ bv2 64) ?t6)))
 (let (($t12 (< j_L0 N_L0)))
 (=> $t12 $t11)))))
(assert
 (let ((?t6 (index_4 j_L0)))
 (let (($t11 (bvsgt (_ bv2 64) ?t6)))
 (let (($t13 (not $t11)))
 (let (($t14 (= j_L0 N_L0)))
 (=> $t14 $t13))))))
(assert
 (let ((?t1 (N_L1 j_L0)))
(let (($t3 (>= ?t1 1)))
(let (($t12 (< j_L0 N_L0)))
(let (($t15 (and $t12 $t3)))
(xor $t15 $t15))))))
(check-sat)
