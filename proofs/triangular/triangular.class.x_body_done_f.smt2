; loom verify obligation class.%x_body_done_f of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%y__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?t1 (N_L1 j_L0)))
 (>= ?t1 0)))
(assert
 (let ((?t2 (index_1 j_L0)))
 (let ((?t3 (bvadd ?t2 (_ bv1 64))))
 (let (($t4 (bvslt (_ bv0 64) ?t3)))
 (let ((?t1 (N_L1 j_L0)))
 (let (($t5 (>= ?t1 1)))
 (= $t5 $t4)))))))
(assert
 (>= N_L0 0))
(assert
 (let ((?t6 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let (($t7 (bvslt (_ bv0 64) ?t6)))
 (let (($t8 (>= N_L0 1)))
 (= $t8 $t7)))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t2 (index_1 j_L0)))
 (let (($t9 (= (_ bv0 64) ?t2)))
 (let (($t10 (= j_L0 0)))
 (=> $t10 $t9)))))
(assert
 (let ((?t2 (index_1 j_L0)))
 (let (($t11 (bvsle (_ bv0 64) ?t2)))
 (let (($t12 (<= j_L0 N_L0)))
 (=> $t12 $t11)))))
(assert
 (let ((?t6 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (index_1 j_L0)))
 (let (($t13 (bvslt ?t2 ?t6)))
 (let (($t14 (< j_L0 N_L0)))
 (=> $t14 $t13))))))
(assert
 (let ((?t6 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (index_1 j_L0)))
 (let (($t13 (bvslt ?t2 ?t6)))
 (let (($t15 (not $t13)))
 (let (($t16 (= j_L0 N_L0)))
 (=> $t16 $t15)))))))
(assert
 (let ((?t2 (index_1 j_L0)))
(let ((?t3 (bvadd ?t2 (_ bv1 64))))
(let (($t4 (bvslt (_ bv0 64) ?t3)))
(let (($t14 (< j_L0 N_L0)))
(let ((?t6 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
(let (($t7 (bvslt (_ bv0 64) ?t6)))
(let ((?t1 (N_L1 j_L0)))
(let (($t5 (>= ?t1 1)))
(let (($t17 (and $t5 $t7 $t14 $t4)))
(xor $t17 $t17)))))))))))
(check-sat)
