; loom verify obligation refine.load@14:9 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun scf_iv@12_5 () (_ BitVec 64))
(declare-fun scf_iv@13_7 () (_ BitVec 64))
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
 (let ((?t1 (bvmul (_ bv8 64) scf_iv@12_5)))
 (let ((?t2 (bvmul (_ bv8 64) arg_row)))
 (let ((?t3 (bvmul (_ bv2 64) scf_iv@13_7)))
 (let ((?t4 (bvadd arg_col ?t3 ?t2 ?t1)))
 (let (($t5 (= true true)))
 (not (and $t5 (=> true (= ?t4 ?t4))))))))))
(assert
 (let ((?t6 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t7 (bvmul ?t6 (_ bv8 64))))
 (let (($t8 (bvule ?t7 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (let (($t9 (= (_ bv47 64) (bvadd ?t7 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (and $t9 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t6 (_ bv2305843009213693951 64)) $t8))))))
(assert
 (let ((?t6 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t7 (bvmul ?t6 (_ bv8 64))))
 (let (($t8 (bvule ?t7 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (let (($t9 (= (_ bv47 64) (bvadd ?t7 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (and $t9 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t6 (_ bv2305843009213693951 64)) $t8))))))
(assert
 (= dfg_idx@%index scf_iv@12_5))
(assert
 (= dfg_idx@%index_0 scf_iv@13_7))
(check-sat)
