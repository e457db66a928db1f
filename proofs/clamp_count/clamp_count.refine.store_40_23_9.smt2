; loom verify obligation refine.store@23:9 of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_v_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@10_5 () (_ BitVec 64))
(declare-fun scf_iter0@10_5 () (_ BitVec 32))
(declare-fun arg_lo () (_ BitVec 32))
(declare-fun load@11_7_0 () (_ BitVec 32))
(declare-fun arg_hi () (_ BitVec 32))
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
 (let (($t3 (bvsgt load@11_7_0 arg_hi)))
 (let ((?t4 (ite $t3 arg_hi load@11_7_0)))
 (let (($t5 (bvslt load@11_7_0 arg_lo)))
 (let (($t6 (not $t5)))
 (let ((?t7 (ite $t6 ?t4 arg_lo)))
 (let ((?t8 (ite $t5 arg_lo ?t4)))
 (let ((?t9 ((_ zero_extend 31) (ite $t3 (_ bv1 1) (_ bv0 1)))))
 (let ((?t10 (ite $t5 (_ bv1 32) ?t9)))
 (let (($t11 (and (distinct (_ bv0 32) ?t10) true)))
 (let (($t12 (and true $t11)))
 (let (($t13 (=> $t12 (= ?t8 ?t7))))
 (let ((?t14 (ite $t6 ?t9 (_ bv1 32))))
 (let (($t15 (and (distinct (_ bv0 32) ?t14) true)))
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t16 (and true $t2)))
 (let (($t17 (and $t16 $t15)))
 (let (($t18 (= $t12 $t17)))
 (not (and $t18 (=> $t12 (= scf_iv@10_5 scf_iv@10_5)) $t13)))))))))))))))))))))
(assert
 (= dfg_idx@%index scf_iv@10_5))
(assert
 (= dfg_%carry_cnt scf_iter0@10_5))
(check-sat)
