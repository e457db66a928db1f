; loom verify obligation refine.loop@9:5.activation of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_y_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?t1 (memref.dim_arg_y_->index_BitVec_64_ (_ bv0 64))))
(let (($t2 (bvslt (_ bv0 64) ?t1)))
(let (($t3 (and true $t2)))
(let (($t4 (and (=> (and $t3 $t2) true) (=> $t3 $t3))))
(not $t4))))))
(check-sat)
