; loom verify obligation len.L0.raw of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%in__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?t1 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
(let ((?t2 (bvsub ?t1 (_ bv1 64))))
(let (($t3 (bvslt (_ bv1 64) ?t2)))
(let (($t4 (and $t3)))
(let (($t5 (xor $t4 $t4)))
(let (($t6 (and $t5)))
(or $t6))))))))
(check-sat)
