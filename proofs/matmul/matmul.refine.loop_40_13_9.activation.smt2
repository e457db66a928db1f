; loom verify obligation refine.loop@13:9.activation of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_A_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@11_5 () (_ BitVec 64))
(declare-fun memref.dim_arg_B_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@12_7 () (_ BitVec 64))
(declare-fun dfg_idx@%index () (_ BitVec 64))
(declare-fun dfg_idx@%index_0 () (_ BitVec 64))
(assert
 (let ((?t1 (memref.dim_arg_A_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (and true $t2))))
(assert
 (= scf_iv@11_5 scf_iv@11_5))
(assert
 (bvsle (_ bv0 64) scf_iv@11_5))
(assert
 (bvuge scf_iv@11_5 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@11_5))
(assert
 (bvuge scf_iv@11_5 (_ bv0 64)))
(assert
 (let ((?t1 (memref.dim_arg_A_->index_BitVec_64_ (_ bv0 64))))
 (bvslt scf_iv@11_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_A_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_A_->index_BitVec_64_ (_ bv0 64))))
 (bvslt scf_iv@11_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_A_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t3 (memref.dim_arg_B_->index_BitVec_64_ (_ bv1 64))))
 (let (($t4 (bvslt (_ bv0 64) ?t3)))
 (let ((?t1 (memref.dim_arg_A_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t5 (and true $t2)))
 (and $t5 $t4)))))))
(assert
 (= scf_iv@12_7 scf_iv@12_7))
(assert
 (bvsle (_ bv0 64) scf_iv@12_7))
(assert
 (bvuge scf_iv@12_7 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@12_7))
(assert
 (bvuge scf_iv@12_7 (_ bv0 64)))
(assert
 (let ((?t3 (memref.dim_arg_B_->index_BitVec_64_ (_ bv1 64))))
 (bvslt scf_iv@12_7 ?t3)))
(assert
 (let ((?t3 (memref.dim_arg_B_->index_BitVec_64_ (_ bv1 64))))
 (bvslt (_ bv0 64) ?t3)))
(assert
 (let ((?t3 (memref.dim_arg_B_->index_BitVec_64_ (_ bv1 64))))
 (bvslt scf_iv@12_7 ?t3)))
(assert
 (let ((?t3 (memref.dim_arg_B_->index_BitVec_64_ (_ bv1 64))))
 (bvslt (_ bv0 64) ?t3)))
(assert
 (let ((?t6 (memref.dim_arg_A_->index_BitVec_64_ (_ bv1 64))))
 (let (($t7 (bvslt (_ bv0 64) ?t6)))
 (let ((?t3 (memref.dim_arg_B_->index_BitVec_64_ (_ bv1 64))))
 (let (($t4 (bvslt (_ bv0 64) ?t3)))
 (let ((?t1 (memref.dim_arg_A_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t5 (and true $t2)))
 (let (($t8 (and $t5 $t4)))
 (let (($t9 (and $t8 $t7)))
 (let (($t10 (and (=> (and $t9 $t7) true) (=> (and true $t7) $t9))))
 (not $t10))))))))))))
(assert
 (= dfg_idx@%index scf_iv@11_5))
(assert
 (= dfg_idx@%index_0 scf_iv@12_7))
(check-sat)
