; loom verify obligation class.%x_inv of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(declare-fun j_L1 () Int)
(declare-fun index_0_6 (Int Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?t1 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t3 (>= N_L0 1)))
 (= $t3 $t2)))))
(assert
 (let ((?t4 (N_L1 j_L0)))
 (>= ?t4 0)))
(assert
 (let ((?t4 (N_L1 j_L0)))
 (= ?t4 8)))
(assert
 (let (($t5 (bvslt (_ bv0 64) (_ bv8 64))))
 (let ((?t4 (N_L1 j_L0)))
 (let (($t6 (>= ?t4 1)))
 (= $t6 $t5)))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t7 (index_1 j_L0)))
 (let (($t8 (= (_ bv0 64) ?t7)))
 (let (($t9 (= j_L0 0)))
 (=> $t9 $t8)))))
(assert
 (let ((?t7 (index_1 j_L0)))
 (let (($t10 (bvsle (_ bv0 64) ?t7)))
 (let (($t11 (<= j_L0 N_L0)))
 (=> $t11 $t10)))))
(assert
 (let ((?t1 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t7 (index_1 j_L0)))
 (let (($t12 (bvslt ?t7 ?t1)))
 (let (($t13 (< j_L0 N_L0)))
 (=> $t13 $t12))))))
(assert
 (let ((?t1 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t7 (index_1 j_L0)))
 (let (($t12 (bvslt ?t7 ?t1)))
 (let (($t14 (not $t12)))
 (let (($t15 (= j_L0 N_L0)))
 (=> $t15 $t14)))))))
(assert
 (>= j_L1 0))
(assert
 (let ((?t4 (N_L1 j_L0)))
 (<= j_L1 ?t4)))
(assert
 (let ((?t16 (index_0_6 j_L0 j_L1)))
 (let (($t17 (= (_ bv0 64) ?t16)))
 (let (($t18 (= j_L1 0)))
 (=> $t18 $t17)))))
(assert
 (let ((?t16 (index_0_6 j_L0 j_L1)))
 (let (($t19 (bvsle (_ bv0 64) ?t16)))
 (let ((?t4 (N_L1 j_L0)))
 (let (($t20 (<= j_L1 ?t4)))
 (=> $t20 $t19))))))
(assert
 (let ((?t16 (index_0_6 j_L0 j_L1)))
 (let (($t21 (bvsgt (_ bv8 64) ?t16)))
 (let ((?t4 (N_L1 j_L0)))
 (let (($t22 (< j_L1 ?t4)))
 (=> $t22 $t21))))))
(assert
 (let ((?t16 (index_0_6 j_L0 j_L1)))
 (let (($t21 (bvsgt (_ bv8 64) ?t16)))
 (let (($t23 (not $t21)))
 (let ((?t4 (N_L1 j_L0)))
 (let (($t24 (= j_L1 ?t4)))
 (=> $t24 $t23)))))))
(assert
 (let ((?t4 (N_L1 j_L0)))
(let (($t22 (< j_L1 ?t4)))
(let (($t13 (< j_L0 N_L0)))
(let ((?t1 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($t2 (bvslt (_ bv0 64) ?t1)))
(let (($t25 (and $t2 $t13 $t22)))
(xor $t25 $t25))))))))
(check-sat)
