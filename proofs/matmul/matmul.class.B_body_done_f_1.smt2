; loom verify obligation class.%B_body_done_f_1 of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%A__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?t1 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t3 (>= N_L0 1)))
 (= $t3 $t2)))))
(assert
 (let (($t3 (>= N_L0 1)))
(let ((?t1 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
(let (($t2 (bvslt (_ bv0 64) ?t1)))
(let (($t4 (and $t2 $t3)))
(xor $t4 $t4))))))
(check-sat)
