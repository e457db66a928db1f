; loom verify obligation refine.load@14:7 of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_data_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@10_5 () (_ BitVec 64))
(declare-fun arith.remui___0->index_BitVec_64__BitVec_64_ ((_ BitVec 64) (_ BitVec 64)) (_ BitVec 64))
(declare-fun memref.dim_arg_hist_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun load@11_7_0 () (_ BitVec 32))
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
 (bvslt scf_iv@10_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_data_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_data_->index_BitVec_64_ (_ bv0 64))))
 (bvslt scf_iv@10_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_data_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t3 (memref.dim_arg_hist_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t4 (arith.remui___0->index_BitVec_64__BitVec_64_ (concat (_ bv0 32) load@11_7_0) ?t3)))
 (let (($t5 (=> true (= ?t4 ?t4))))
 (let ((?t1 (memref.dim_arg_data_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t6 (and true $t2)))
 (let (($t7 (= true $t6)))
 (let (($t8 (and $t7 $t5)))
 (not $t8))))))))))
(assert
 (= dfg_idx@%index scf_iv@10_5))
(check-sat)
