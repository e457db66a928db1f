; loom verify obligation class.%out_body_done_f_0 of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%in__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?t1 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (let (($t3 (bvslt (_ bv1 64) ?t2)))
 (let (($t4 (>= N_L0 1)))
 (= $t4 $t3))))))
(assert
 (let ((?t1 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
(let ((?t2 (bvsub ?t1 (_ bv1 64))))
(let (($t3 (bvslt (_ bv1 64) ?t2)))
(let (($t4 (>= N_L0 1)))
(let (($t5 (and $t4 $t3)))
(xor $t5 $t5)))))))
(check-sat)
