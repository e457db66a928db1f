; loom verify obligation refine.load@21:9 of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_in_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@13_5 () (_ BitVec 64))
(declare-fun scf_iv@16_7 () (_ BitVec 64))
(declare-fun dfg_idx@%index () (_ BitVec 64))
(declare-fun dfg_idx@%index_0 () (_ BitVec 64))
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
 (bvslt scf_iv@13_5 ?t2))))
(assert
 (let ((?t1 (memref.dim_arg_in_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (bvslt (_ bv1 64) ?t2))))
(assert
 (let ((?t1 (memref.dim_arg_in_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (bvslt scf_iv@13_5 ?t2))))
(assert
 (let ((?t1 (memref.dim_arg_in_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (bvslt (_ bv1 64) ?t2))))
(assert
 (let ((?t4 (memref.dim_arg_in_->index_BitVec_64_ (_ bv1 64))))
 (let ((?t5 (bvsub ?t4 (_ bv1 64))))
 (let (($t6 (bvslt (_ bv1 64) ?t5)))
 (let ((?t1 (memref.dim_arg_in_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (let (($t3 (bvslt (_ bv1 64) ?t2)))
 (let (($t7 (and true $t3)))
 (and $t7 $t6)))))))))
(assert
 (= scf_iv@16_7 scf_iv@16_7))
(assert
 (bvsle (_ bv1 64) scf_iv@16_7))
(assert
 (bvuge scf_iv@16_7 (_ bv1 64)))
(assert
 (bvsle (_ bv1 64) scf_iv@16_7))
(assert
 (bvuge scf_iv@16_7 (_ bv1 64)))
(assert
 (let ((?t4 (memref.dim_arg_in_->index_BitVec_64_ (_ bv1 64))))
 (let ((?t5 (bvsub ?t4 (_ bv1 64))))
 (bvslt scf_iv@16_7 ?t5))))
(assert
 (let ((?t4 (memref.dim_arg_in_->index_BitVec_64_ (_ bv1 64))))
 (let ((?t5 (bvsub ?t4 (_ bv1 64))))
 (bvslt (_ bv1 64) ?t5))))
(assert
 (let ((?t4 (memref.dim_arg_in_->index_BitVec_64_ (_ bv1 64))))
 (let ((?t5 (bvsub ?t4 (_ bv1 64))))
 (bvslt scf_iv@16_7 ?t5))))
(assert
 (let ((?t4 (memref.dim_arg_in_->index_BitVec_64_ (_ bv1 64))))
 (let ((?t5 (bvsub ?t4 (_ bv1 64))))
 (bvslt (_ bv1 64) ?t5))))
(assert
 (let ((?t8 (bvadd (_ bv1 64) scf_iv@13_5)))
 (let ((?t4 (memref.dim_arg_in_->index_BitVec_64_ (_ bv1 64))))
 (let ((?t9 (bvadd scf_iv@16_7 (bvmul ?t4 ?t8))))
 (let ((?t5 (bvsub ?t4 (_ bv1 64))))
 (let (($t6 (bvslt (_ bv1 64) ?t5)))
 (let ((?t1 (memref.dim_arg_in_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (let (($t3 (bvslt (_ bv1 64) ?t2)))
 (let (($t7 (and true $t3)))
 (let (($t10 (and $t7 $t6)))
 (let (($t11 (= true $t10)))
 (not (and $t11 (=> true (= ?t9 ?t9))))))))))))))))
(assert
 (= dfg_idx@%index scf_iv@13_5))
(assert
 (= dfg_idx@%index_0 scf_iv@16_7))
(check-sat)
