; loom verify obligation refine.store@16:9 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-sort f32 0)
(declare-fun scf_iv@12_5 () (_ BitVec 64))
(declare-fun scf_iv@13_7 () (_ BitVec 64))
(declare-fun arith.mulf___0->f32_f32_f32 (f32 f32) f32)
(declare-fun arg_s () f32)
(declare-fun load@14_9_0 () f32)
(declare-fun arg_row () (_ BitVec 64))
(declare-fun arg_col () (_ BitVec 64))
(declare-fun arith.remui___0->index_BitVec_64__BitVec_64_ ((_ BitVec 64) (_ BitVec 64)) (_ BitVec 64))
(declare-fun arith.divui___0->index_BitVec_64__BitVec_64_ ((_ BitVec 64) (_ BitVec 64)) (_ BitVec 64))
(declare-fun dfg_idx@%index () (_ BitVec 64))
(declare-fun dfg_idx@%index_0 () (_ BitVec 64))
(assert
 (= scf_iv@12_5 scf_iv@12_5))
(assert
 (bvsle (_ bv0 64) scf_iv@12_5))
(assert
 (bvuge scf_iv@12_5 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@12_5))
(assert
 (bvuge scf_iv@12_5 (_ bv0 64)))
(assert
 (bvsgt (_ bv2 64) scf_iv@12_5))
(assert
 (bvsgt (_ bv2 64) (_ bv0 64)))
(assert
 (bvsgt (_ bv2 64) scf_iv@12_5))
(assert
 (bvsgt (_ bv2 64) (_ bv0 64)))
(assert
 (= scf_iv@13_7 scf_iv@13_7))
(assert
 (bvsle (_ bv0 64) scf_iv@13_7))
(assert
 (bvuge scf_iv@13_7 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@13_7))
(assert
 (bvuge scf_iv@13_7 (_ bv0 64)))
(assert
 (bvsgt (_ bv3 64) scf_iv@13_7))
(assert
 (bvsgt (_ bv3 64) (_ bv0 64)))
(assert
 (bvsgt (_ bv3 64) scf_iv@13_7))
(assert
 (bvsgt (_ bv3 64) (_ bv0 64)))
(assert
 (let ((?t1 (arith.mulf___0->f32_f32_f32 load@14_9_0 arg_s)))
 (let (($t2 (=> true (= ?t1 ?t1))))
 (let ((?t3 (bvmul (_ bv8 64) scf_iv@12_5)))
 (let ((?t4 (bvmul (_ bv8 64) arg_row)))
 (let ((?t5 (bvmul (_ bv2 64) scf_iv@13_7)))
 (let ((?t6 (bvadd arg_col ?t5 ?t4 ?t3)))
 (let (($t7 (=> true (= ?t6 ?t6))))
 (let (($t8 (= true true)))
 (not (and $t8 $t7 $t2)))))))))))
(assert
 (let ((?t9 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t10 (bvmul ?t9 (_ bv8 64))))
 (let (($t11 (bvule ?t10 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (let (($t12 (= (_ bv47 64) (bvadd ?t10 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (and $t12 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t9 (_ bv2305843009213693951 64)) $t11))))))
(assert
 (let ((?t9 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t10 (bvmul ?t9 (_ bv8 64))))
 (let (($t11 (bvule ?t10 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (let (($t12 (= (_ bv47 64) (bvadd ?t10 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (and $t12 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t9 (_ bv2305843009213693951 64)) $t11))))))
(assert
 (= dfg_idx@%index scf_iv@12_5))
(assert
 (= dfg_idx@%index_0 scf_iv@13_7))
(check-sat)
