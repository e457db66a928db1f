; loom verify obligation refine.loop@13:5.cond of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_in_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@13_5 () (_ BitVec 64))
(declare-fun dfg_idx@%index () (_ BitVec 64))
(assert
 (let ((?t1 (memref.dim_arg_in_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (let (($t3 (bvslt (_ bv1 64) ?t2)))
 (and true $t3)))))
(assert
 (= scf_iv@13_5 scf_iv@13_5))
(assert
 (bvsle (_ bv1 64) scf_iv@13_5))
(assert
 (bvuge scf_iv@13_5 (_ bv1 64)))
(assert
 (bvsle (_ bv1 64) scf_iv@13_5))
(assert
 (bvuge scf_iv@13_5 (_ bv1 64)))
(assert
 (let ((?t1 (memref.dim_arg_in_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (let (($t4 (bvslt scf_iv@13_5 ?t2)))
 (not (= $t4 $t4))))))
(assert
 (= dfg_idx@%index scf_iv@13_5))
(check-sat)
