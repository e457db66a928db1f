; loom verify obligation refine.loop@13:7.cond of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun scf_iv@12_5 () (_ BitVec 64))
(declare-fun scf_iv@13_7 () (_ BitVec 64))
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
 (not (= (bvsgt (_ bv3 64) scf_iv@13_7) (bvsgt (_ bv3 64) scf_iv@13_7))))
(assert
 (let ((?t1 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t2 (bvmul ?t1 (_ bv8 64))))
 (let (($t3 (bvule ?t2 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (let (($t4 (= (_ bv47 64) (bvadd ?t2 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (and $t4 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t1 (_ bv2305843009213693951 64)) $t3))))))
(assert
 (let ((?t1 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t2 (bvmul ?t1 (_ bv8 64))))
 (let (($t3 (bvule ?t2 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (let (($t4 (= (_ bv47 64) (bvadd ?t2 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (and $t4 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t1 (_ bv2305843009213693951 64)) $t3))))))
(assert
 (= dfg_idx@%index scf_iv@12_5))
(assert
 (= dfg_idx@%index_0 scf_iv@13_7))
(check-sat)
