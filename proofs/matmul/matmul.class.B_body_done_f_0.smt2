; loom verify obligation class.%B_body_done_f_0 of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%A__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun memref.dim_%B__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?t1 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t3 (>= N_L0 1)))
 (= $t3 $t2)))))
(assert
 (let ((?t4 (N_L1 j_L0)))
 (>= ?t4 0)))
(assert
 (let ((?t5 (memref.dim_%B__0->index_BitVec_64_ (_ bv1 64))))
 (let (($t6 (bvslt (_ bv0 64) ?t5)))
 (let ((?t4 (N_L1 j_L0)))
 (let (($t7 (>= ?t4 1)))
 (= $t7 $t6))))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t8 (index_1 j_L0)))
 (let (($t9 (= (_ bv0 64) ?t8)))
 (let (($t10 (= j_L0 0)))
 (=> $t10 $t9)))))
(assert
 (let ((?t8 (index_1 j_L0)))
 (let (($t11 (bvsle (_ bv0 64) ?t8)))
 (let (($t12 (<= j_L0 N_L0)))
 (=> $t12 $t11)))))
(assert
 (let ((?t1 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t8 (index_1 j_L0)))
 (let (($t13 (bvslt ?t8 ?t1)))
 (let (($t14 (< j_L0 N_L0)))
 (=> $t14 $t13))))))
(assert
 (let ((?t1 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t8 (index_1 j_L0)))
 (let (($t13 (bvslt ?t8 ?t1)))
 (let (($t15 (not $t13)))
 (let (($t16 (= j_L0 N_L0)))
 (=> $t16 $t15)))))))
(assert
 (let ((?t1 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
(let (($t2 (bvslt (_ bv0 64) ?t1)))
(let (($t14 (< j_L0 N_L0)))
(let ((?t4 (N_L1 j_L0)))
(let (($t7 (>= ?t4 1)))
(let ((?t5 (memref.dim_%B__0->index_BitVec_64_ (_ bv1 64))))
(let (($t6 (bvslt (_ bv0 64) ?t5)))
(let (($t17 (and $t6 $t7 $t14 $t2)))
(xor $t17 $t17))))))))))
(check-sat)
