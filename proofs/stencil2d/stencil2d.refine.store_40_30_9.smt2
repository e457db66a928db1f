; loom verify obligation refine.store@30:9 of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_arg_in_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun scf_iv@13_5 () (_ BitVec 64))
(declare-fun scf_iv@16_7 () (_ BitVec 64))
(declare-fun arith.divsi___0->i32_BitVec_32__BitVec_32_ ((_ BitVec 32) (_ BitVec 32)) (_ BitVec 32))
(declare-fun load@23_9_4 () (_ BitVec 32))
(declare-fun load@22_9_3 () (_ BitVec 32))
(declare-fun load@21_9_2 () (_ BitVec 32))
(declare-fun load@20_9_1 () (_ BitVec 32))
(declare-fun load@19_9_0 () (_ BitVec 32))
(declare-fun memref.dim_arg_out_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun arith.remsi___0->i32_BitVec_32__BitVec_32_ ((_ BitVec 32) (_ BitVec 32)) (_ BitVec 32))
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
 (let ((?t8 (bvmul load@19_9_0 (_ bv4 32))))
 (let ((?t9 (bvadd ?t8 load@20_9_1)))
 (let ((?t10 (bvadd ?t9 load@21_9_2)))
 (let ((?t11 (bvadd ?t10 load@22_9_3)))
 (let ((?t12 (bvadd ?t11 load@23_9_4)))
 (let ((?t13 (arith.divsi___0->i32_BitVec_32__BitVec_32_ ?t12 (_ bv8 32))))
 (let (($t14 (=> true (= ?t13 ?t13))))
 (let ((?t15 (memref.dim_arg_out_->index_BitVec_64_ (_ bv1 64))))
 (let ((?t16 (bvmul scf_iv@13_5 ?t15)))
 (let ((?t17 (bvadd scf_iv@16_7 ?t16)))
 (let ((?t4 (memref.dim_arg_in_->index_BitVec_64_ (_ bv1 64))))
 (let ((?t5 (bvsub ?t4 (_ bv1 64))))
 (let (($t6 (bvslt (_ bv1 64) ?t5)))
 (let ((?t1 (memref.dim_arg_in_->index_BitVec_64_ (_ bv0 64))))
 (let ((?t2 (bvsub ?t1 (_ bv1 64))))
 (let (($t3 (bvslt (_ bv1 64) ?t2)))
 (let (($t7 (and true $t3)))
 (let (($t18 (and $t7 $t6)))
 (let (($t19 (= true $t18)))
 (not (and $t19 (=> true (= ?t17 ?t17)) $t14))))))))))))))))))))))
(assert
 (let ((?t8 (bvmul load@19_9_0 (_ bv4 32))))
 (let ((?t9 (bvadd ?t8 load@20_9_1)))
 (let ((?t10 (bvadd ?t9 load@21_9_2)))
 (let ((?t11 (bvadd ?t10 load@22_9_3)))
 (let ((?t12 (bvadd ?t11 load@23_9_4)))
 (let ((?t20 (arith.remsi___0->i32_BitVec_32__BitVec_32_ ?t12 (_ bv8 32))))
 (let ((?t13 (arith.divsi___0->i32_BitVec_32__BitVec_32_ ?t12 (_ bv8 32))))
 (let ((?t21 (bvmul ?t13 (_ bv8 32))))
 (let (($t22 (bvsge ?t20 (_ bv0 32))))
 (let (($t23 (ite $t22 (bvsle ?t21 (bvsub (_ bv2147483647 32) ?t20)) (bvsge ?t21 (bvsub (_ bv2147483648 32) ?t20)))))
 (and (= (bvadd ?t21 ?t20) ?t12) (bvsgt (_ bv8 32) ?t20) (bvsgt ?t20 (bvneg (_ bv8 32))) (bvsge (_ bv268435455 32) ?t13) (bvsle (_ bv4026531840 32) ?t13) (=> (bvsge ?t12 (_ bv0 32)) $t22) (=> (bvslt ?t12 (_ bv0 32)) (bvsle ?t20 (_ bv0 32))) $t23))))))))))))
(assert
 (= dfg_idx@%index scf_iv@13_5))
(assert
 (= dfg_idx@%index_0 scf_iv@16_7))
(check-sat)
