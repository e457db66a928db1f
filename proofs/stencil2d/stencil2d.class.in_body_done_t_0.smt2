; loom verify obligation class.%in_body_done_t_0 of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%in__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?t1 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (let (($t3 (bvslt (_ bv1 64) ?t2)))
 (let (($t4 (>= N_L0 1)))
 (= $t4 $t3))))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t5 (index_1 j_L0)))
 (let (($t6 (= (_ bv1 64) ?t5)))
 (let (($t7 (= j_L0 0)))
 (=> $t7 $t6)))))
(assert
 (let ((?t5 (index_1 j_L0)))
 (let (($t8 (bvsle (_ bv1 64) ?t5)))
 (let (($t9 (<= j_L0 N_L0)))
 (=> $t9 $t8)))))
(assert
 (let ((?t1 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (let ((?t5 (index_1 j_L0)))
 (let (($t10 (bvslt ?t5 ?t2)))
 (let (($t11 (< j_L0 N_L0)))
 (=> $t11 $t10)))))))
(assert
 (let ((?t1 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (let ((?t5 (index_1 j_L0)))
 (let (($t10 (bvslt ?t5 ?t2)))
 (let (($t12 (not $t10)))
 (let (($t13 (= j_L0 N_L0)))
 (=> $t13 $t12))))))))
(assert
 (let ((?t1 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
(let ((?t2 (bvsub ?t1 (_ bv1 64))))
(let (($t3 (bvslt (_ bv1 64) ?t2)))
(let ((?t14 (- N_L0 1)))
(let (($t15 (< j_L0 ?t14)))
(let (($t11 (< j_L0 N_L0)))
(let (($t16 (and $t11 $t15 $t3)))
(xor $t16 $t16)))))))))
(check-sat)
