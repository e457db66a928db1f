; loom verify obligation refine.load@12:9 of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_y_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@9_5 () (_ BitVec 64))
(declare-fun scf_iv@11_7 () (_ BitVec 64))
(declare-fun scf_iter0@11_7 () (_ BitVec 32))
(declare-fun memref.dim_arg_L_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun dfg_idx@%index () (_ BitVec 64))
(declare-fun dfg_idx@%index_0 () (_ BitVec 64))
(declare-fun dfg_%carry_acc () (_ BitVec 32))
(assert
 (let ((?t1 (memref.dim_arg_y_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (and true $t2))))
(assert
 (= scf_iv@9_5 scf_iv@9_5))
(assert
 (bvsle (_ bv0 64) scf_iv@9_5))
(assert
 (bvuge scf_iv@9_5 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@9_5))
(assert
 (bvuge scf_iv@9_5 (_ bv0 64)))
(assert
 (let ((?t1 (memref.dim_arg_y_->index_BitVec_64_ (_ bv0 64))))
 (bvslt scf_iv@9_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_y_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_y_->index_BitVec_64_ (_ bv0 64))))
 (bvslt scf_iv@9_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_y_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t3 (bvadd scf_iv@9_5 (_ bv1 64))))
 (let (($t4 (bvslt (_ bv0 64) ?t3)))
 (let ((?t1 (memref.dim_arg_y_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t5 (and true $t2)))
 (and $t5 $t4)))))))
(assert
 (= scf_iv@11_7 scf_iv@11_7))
(assert
 (= scf_iter0@11_7 scf_iter0@11_7))
(assert
 (bvsle (_ bv0 64) scf_iv@11_7))
(assert
 (bvuge scf_iv@11_7 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@11_7))
(assert
 (bvuge scf_iv@11_7 (_ bv0 64)))
(assert
 (let ((?t3 (bvadd scf_iv@9_5 (_ bv1 64))))
 (bvslt scf_iv@11_7 ?t3)))
(assert
 (let ((?t3 (bvadd scf_iv@9_5 (_ bv1 64))))
 (bvslt (_ bv0 64) ?t3)))
(assert
 (let ((?t3 (bvadd scf_iv@9_5 (_ bv1 64))))
 (bvslt scf_iv@11_7 ?t3)))
(assert
 (let ((?t3 (bvadd scf_iv@9_5 (_ bv1 64))))
 (bvslt (_ bv0 64) ?t3)))
(assert
 (let ((?t6 (bvadd scf_iv@11_7 (bvmul scf_iv@9_5 (memref.dim_arg_L_->index_BitVec_64_ (_ bv1 64))))))
 (let ((?t3 (bvadd scf_iv@9_5 (_ bv1 64))))
 (let (($t4 (bvslt (_ bv0 64) ?t3)))
 (let ((?t1 (memref.dim_arg_y_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t5 (and true $t2)))
 (let (($t7 (and $t5 $t4)))
 (not (and (= true $t7) (=> true (= ?t6 ?t6))))))))))))
(assert
 (= dfg_idx@%index scf_iv@9_5))
(assert
 (= dfg_idx@%index_0 scf_iv@11_7))
(assert
 (= dfg_%carry_acc scf_iter0@11_7))
(check-sat)
