; loom verify obligation class.%index_0 of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%y__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(declare-fun j_L1 () Int)
(declare-fun index_0_5 (Int Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?t1 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t3 (>= N_L0 1)))
 (= $t3 $t2)))))
(assert
 (let ((?t4 (N_L1 j_L0)))
 (>= ?t4 0)))
(assert
 (let ((?t5 (index_1 j_L0)))
 (let ((?t6 (bvadd ?t5 (_ bv1 64))))
 (let (($t7 (bvslt (_ bv0 64) ?t6)))
 (let ((?t4 (N_L1 j_L0)))
 (let (($t8 (>= ?t4 1)))
 (= $t8 $t7)))))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t5 (index_1 j_L0)))
 (let (($t9 (= (_ bv0 64) ?t5)))
 (let (($t10 (= j_L0 0)))
 (=> $t10 $t9)))))
(assert
 (let ((?t5 (index_1 j_L0)))
 (let (($t11 (bvsle (_ bv0 64) ?t5)))
 (let (($t12 (<= j_L0 N_L0)))
 (=> $t12 $t11)))))
(assert
 (let ((?t1 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t5 (index_1 j_L0)))
 (let (($t13 (bvslt ?t5 ?t1)))
 (let (($t14 (< j_L0 N_L0)))
 (=> $t14 $t13))))))
(assert
 (let ((?t1 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t5 (index_1 j_L0)))
 (let (($t13 (bvslt ?t5 ?t1)))
 (let (($t15 (not $t13)))
 (let (($t16 (= j_L0 N_L0)))
 (=> $t16 $t15)))))))
(assert
 (>= j_L1 0))
(assert
 (let ((?t4 (N_L1 j_L0)))
 (<= j_L1 ?t4)))
(assert
 (let ((?t17 (index_0_5 j_L0 j_L1)))
 (let (($t18 (= (_ bv0 64) ?t17)))
 (let (($t19 (= j_L1 0)))
 (=> $t19 $t18)))))
(assert
 (let ((?t17 (index_0_5 j_L0 j_L1)))
 (let (($t20 (bvsle (_ bv0 64) ?t17)))
 (let ((?t4 (N_L1 j_L0)))
 (let (($t21 (<= j_L1 ?t4)))
 (=> $t21 $t20))))))
(assert
 (let ((?t5 (index_1 j_L0)))
 (let ((?t6 (bvadd ?t5 (_ bv1 64))))
 (let ((?t17 (index_0_5 j_L0 j_L1)))
 (let (($t22 (bvslt ?t17 ?t6)))
 (let ((?t4 (N_L1 j_L0)))
 (let (($t23 (< j_L1 ?t4)))
 (=> $t23 $t22))))))))
(assert
 (let ((?t5 (index_1 j_L0)))
 (let ((?t6 (bvadd ?t5 (_ bv1 64))))
 (let ((?t17 (index_0_5 j_L0 j_L1)))
 (let (($t22 (bvslt ?t17 ?t6)))
 (let (($t24 (not $t22)))
 (let ((?t4 (N_L1 j_L0)))
 (let (($t25 (= j_L1 ?t4)))
 (=> $t25 $t24)))))))))
(assert
 (let ((?t5 (index_1 j_L0)))
(let ((?t6 (bvadd ?t5 (_ bv1 64))))
(let (($t7 (bvslt (_ bv0 64) ?t6)))
(let (($t14 (< j_L0 N_L0)))
(let ((?t1 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
(let (($t2 (bvslt (_ bv0 64) ?t1)))
(let (($t26 (and $t2 $t14 $t7)))
(xor $t26 $t26)))))))))
(check-sat)
