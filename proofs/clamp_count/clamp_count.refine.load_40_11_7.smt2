; loom verify obligation refine.load@11:7 of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_v_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@10_5 () (_ BitVec 64))
(declare-fun scf_iter0@10_5 () (_ BitVec 32))
(declare-fun dfg_idx@%index () (_ BitVec 64))
(declare-fun dfg_%carry_cnt () (_ BitVec 32))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (and true $t2))))
(assert
 (= scf_iv@10_5 scf_iv@10_5))
(assert
 (= scf_iter0@10_5 scf_iter0@10_5))
(assert
 (bvsle (_ bv0 64) scf_iv@10_5))
(assert
 (bvuge scf_iv@10_5 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@10_5))
(assert
 (bvuge scf_iv@10_5 (_ bv0 64)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (bvslt scf_iv@10_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (bvslt scf_iv@10_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t3 (and true $t2)))
 (let (($t4 (= true $t3)))
 (not (and $t4 (=> true (= scf_iv@10_5 scf_iv@10_5)))))))))
(assert
 (= dfg_idx@%index scf_iv@10_5))
(assert
 (= dfg_%carry_cnt scf_iter0@10_5))
(check-sat)
