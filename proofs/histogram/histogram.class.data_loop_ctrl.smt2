; loom verify obligation class.%data_loop_ctrl of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%data__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?t1 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t3 (>= N_L0 1)))
 (= $t3 $t2)))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t4 (index_1 j_L0)))
 (let (($t5 (= (_ bv0 64) ?t4)))
 (let (($t6 (= j_L0 0)))
 (=> $t6 $t5)))))
(assert
 (let ((?t4 (index_1 j_L0)))
 (let (($t7 (bvsle (_ bv0 64) ?t4)))
 (let (($t8 (<= j_L0 N_L0)))
 (=> $t8 $t7)))))
(assert
 (let ((?t1 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t4 (index_1 j_L0)))
 (let (($t9 (bvslt ?t4 ?t1)))
 (let (($t10 (< j_L0 N_L0)))
 (=> $t10 $t9))))))
(assert
 (let ((?t1 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t4 (index_1 j_L0)))
 (let (($t9 (bvslt ?t4 ?t1)))
 (let (($t11 (not $t9)))
 (let (($t12 (= j_L0 N_L0)))
 (=> $t12 $t11)))))))
(assert
 (let ((?t1 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
(let (($t2 (bvslt (_ bv0 64) ?t1)))
(let (($t10 (< j_L0 N_L0)))
(let (($t13 (and $t10 $t2)))
(xor $t13 $t13))))))
(check-sat)
