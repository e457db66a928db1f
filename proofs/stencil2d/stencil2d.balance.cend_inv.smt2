; loom verify obligation balance.%cend_inv of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%in__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let ((?x4341 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
(let ((?x4496 (bvsub ?x4341 (_ bv1 64))))
(let (($x4607 (bvslt (_ bv1 64) ?x4496)))
(let (($x4774 (and $x4607)))
(let (($x4410 (>= N_L0 1)))
(let (($x4885 (and $x4410 $x4607)))
(let (($x4900 (xor $x4885 $x4774)))
(let (($x4762 (= $x4410 $x4607)))
(let (($x4901 (>= N_L0 0)))
(let (($x4889 (and $x4901 $x4762 $x4900)))
(or $x4889))))))))))))
(check-sat)
