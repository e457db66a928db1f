; loom verify obligation refine.loop@10:5.cond of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_data_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@10_5 () (_ BitVec 64))
(declare-fun dfg_idx@%index () (_ BitVec 64))
(assert
 (let ((?t1 (memref.dim_arg_data_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (and true $t2))))
(assert
 (= scf_iv@10_5 scf_iv@10_5))
(assert
 (bvsle (_ bv0 64) scf_iv@10_5))
(assert
 (bvuge scf_iv@10_5 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@10_5))
(assert
 (bvuge scf_iv@10_5 (_ bv0 64)))
(assert
 (let ((?t1 (memref.dim_arg_data_->index_BitVec_64_ (_ bv0 64))))
 (let (($t3 (bvslt scf_iv@10_5 ?t1)))
 (not (= $t3 $t3)))))
(assert
 (= dfg_idx@%index scf_iv@10_5))
(check-sat)
