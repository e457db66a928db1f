; loom verify obligation refine.load@22:9 of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_v_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@14_5 () (_ BitVec 64))
(declare-fun scf_iv@16_7 () (_ BitVec 64))
(declare-fun scf_iter0@16_7 () (_ BitVec 32))
(declare-fun load@15_7_0 () (_ BitVec 32))
(declare-fun dfg_idx@%index () (_ BitVec 64))
(declare-fun dfg_idx@%index_0 () (_ BitVec 64))
(declare-fun dfg_%carry_acc () (_ BitVec 32))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (and true $t2))))
(assert
 (= scf_iv@14_5 scf_iv@14_5))
(assert
 (bvsle (_ bv0 64) scf_iv@14_5))
(assert
 (bvuge scf_iv@14_5 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@14_5))
(assert
 (bvuge scf_iv@14_5 (_ bv0 64)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (bvslt scf_iv@14_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (bvslt scf_iv@14_5 ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (bvslt (_ bv0 64) ?t1)))
(assert
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (and true $t2))))
(assert
 (= scf_iv@16_7 scf_iv@16_7))
(assert
 (= scf_iter0@16_7 scf_iter0@16_7))
(assert
 (bvsle (_ bv0 64) scf_iv@16_7))
(assert
 (bvuge scf_iv@16_7 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@16_7))
(assert
 (bvuge scf_iv@16_7 (_ bv0 64)))
(assert
 (bvsgt (_ bv8 64) scf_iv@16_7))
(assert
 (bvsgt (_ bv8 64) (_ bv0 64)))
(assert
 (bvsgt (_ bv8 64) scf_iv@16_7))
(assert
 (bvsgt (_ bv8 64) (_ bv0 64)))
(assert
 (let ((?t3 (concat (_ bv0 60) ((_ extract 3 0) (bvlshr load@15_7_0 (bvmul (_ bv4 32) ((_ extract 31 0) scf_iv@16_7)))))))
 (let ((?t1 (memref.dim_arg_v_->index_BitVec_64_ (_ bv0 64))))
 (let (($t2 (bvslt (_ bv0 64) ?t1)))
 (let (($t4 (and true $t2)))
 (let (($t5 (= true $t4)))
 (not (and $t5 (=> true (= ?t3 ?t3))))))))))
(assert
 (= dfg_idx@%index scf_iv@14_5))
(assert
 (= dfg_idx@%index_0 scf_iv@16_7))
(assert
 (= dfg_%carry_acc scf_iter0@16_7))
(check-sat)
