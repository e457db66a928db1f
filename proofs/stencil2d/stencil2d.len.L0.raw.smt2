; loom verify obligation len.L0.raw of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%in__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?x4341 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
(let ((?x4496 (bvsub ?x4341 (_ bv1 64))))
(let (($x4607 (bvslt (_ bv1 64) ?x4496)))
(let (($x4774 (and $x4607)))
(let (($x4509 (xor $x4774 $x4774)))
(let (($x4896 (and $x4509)))
(or $x4896))))))))
(check-sat)
