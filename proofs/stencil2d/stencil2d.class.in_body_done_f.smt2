; loom verify obligation class.%in_body_done_f of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun memref.dim_%in__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (let ((?t1 (N_L1 j_L0)))
 (>= ?t1 0)))
(assert
 (let ((?t2 (memref.dim_%in__0->index_BitVec_64_ (_ bv1 64))))
 (let ((?t3 (bvsub ?t2 (_ bv1 64))))
 (let (($t4 (bvslt (_ bv1 64) ?t3)))
 (let ((?t1 (N_L1 j_L0)))
 (let (($t5 (>= ?t1 1)))
 (= $t5 $t4)))))))
(assert
 (>= N_L0 0))
(assert
 (let ((?t6 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t7 (bvsub ?t6 (_ bv1 64))))
 (let (($t8 (bvslt (_ bv1 64) ?t7)))
 (let (($t9 (>= N_L0 1)))
 (= $t9 $t8))))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t10 (index_1 j_L0)))
 (let (($t11 (= (_ bv1 64) ?t10)))
 (let (($t12 (= j_L0 0)))
 (=> $t12 $t11)))))
(assert
 (let ((?t10 (index_1 j_L0)))
 (let (($t13 (bvsle (_ bv1 64) ?t10)))
 (let (($t14 (<= j_L0 N_L0)))
 (=> $t14 $t13)))))
(assert
 (let ((?t6 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t7 (bvsub ?t6 (_ bv1 64))))
 (let ((?t10 (index_1 j_L0)))
 (let (($t15 (bvslt ?t10 ?t7)))
 (let (($t16 (< j_L0 N_L0)))
 (=> $t16 $t15)))))))
(assert
 (let ((?t6 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t7 (bvsub ?t6 (_ bv1 64))))
 (let ((?t10 (index_1 j_L0)))
 (let (($t15 (bvslt ?t10 ?t7)))
 (let (($t17 (not $t15)))
 (let (($t18 (= j_L0 N_L0)))
 (=> $t18 $t17))))))))
(assert
 (let ((?t2 (memref.dim_%in__0->index_BitVec_64_ (_ bv1 64))))
(let ((?t3 (bvsub ?t2 (_ bv1 64))))
(let (($t4 (bvslt (_ bv1 64) ?t3)))
(let ((?t6 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
(let ((?t7 (bvsub ?t6 (_ bv1 64))))
(let (($t8 (bvslt (_ bv1 64) ?t7)))
(let ((?t1 (N_L1 j_L0)))
(let (($t5 (>= ?t1 1)))
(let (($t16 (< j_L0 N_L0)))
(let (($t19 (and $t16 $t5 $t8 $t4)))
(xor $t19 $t19))))))))))))
(check-sat)
