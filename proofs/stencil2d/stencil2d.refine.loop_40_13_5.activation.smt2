; loom verify obligation refine.loop@13:5.activation of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_in_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?t1 (memref.dim_arg_in_->index_BitVec_64_ (_ bv0 64))))
(let ((?t2 (bvsub ?t1 (_ bv1 64))))
(let (($t3 (bvslt (_ bv1 64) ?t2)))
(let (($t4 (and true $t3)))
(let (($t5 (and (=> (and $t4 $t3) true) (=> $t4 $t4))))
(not $t5)))))))
(check-sat)
