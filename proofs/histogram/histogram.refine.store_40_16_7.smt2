; loom verify obligation refine.store@16:7 of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_data_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@10_5 () (_ BitVec 64))
(declare-fun load@14_7_1 () (_ BitVec 32))
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
 (let (($t3 (=> true (= (bvadd load@14_7_1 (_ bv1 32)) (bvadd load@14_7_1 (_ bv1 32))))))
 (let ((?t4 (memref.dim_arg_hist_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t5 (arith.remui___0->index_BitVec_64__BitVec_64_ (concat (_ bv0 32) load@11_7_0) ?t4)))
 (let (($t6 (=> true (= ?t5 ?t5))))
 (let ((?t1 (memref.dim_arg_data_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t7 (and true $t2)))
 (let (($t8 (= true $t7)))
 (let (($t9 (and $t8 $t6 $t3)))
 (not $t9)))))))))))
(assert
 (= dfg_idx@%index scf_iv@10_5))
(check-sat)
