; loom verify obligation class.%in_body_done_f_0 of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%in__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x4341 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x4496 (bvsub ?x4341 (_ bv1 64))))
 (let (($x4607 (bvslt (_ bv1 64) ?x4496)))
 (let (($x4410 (>= N_L0 1)))
 (= $x4410 $x4607))))))
(assert
 (let ((?x4341 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
(let ((?x4496 (bvsub ?x4341 (_ bv1 64))))
(let (($x4607 (bvslt (_ bv1 64) ?x4496)))
(let (($x4410 (>= N_L0 1)))
(let (($x4885 (and $x4410 $x4607)))
(xor $x4885 $x4885)))))))
(check-sat)
