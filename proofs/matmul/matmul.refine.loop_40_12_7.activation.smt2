; loom verify obligation refine.loop@12:7.activation of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_A_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@11_5 () (_ BitVec 64))
(declare-fun memref.dim_arg_B_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun dfg_idx@%index () (_ BitVec 64))
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
 (let (($t6 (and $t5 $t4)))
 (let (($t7 (and (=> (and $t6 $t4) true) (=> (and true $t4) $t6))))
 (not $t7)))))))))
(assert
 (= dfg_idx@%index scf_iv@11_5))
(check-sat)
