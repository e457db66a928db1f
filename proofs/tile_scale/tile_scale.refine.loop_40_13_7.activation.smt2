; loom verify obligation refine.loop@13:7.activation of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun scf_iv@12_5 () (_ BitVec 64))
(declare-fun arith.remui___0->index_BitVec_64__BitVec_64_ ((_ BitVec 64) (_ BitVec 64)) (_ BitVec 64))
(declare-fun arith.divui___0->index_BitVec_64__BitVec_64_ ((_ BitVec 64) (_ BitVec 64)) (_ BitVec 64))
(declare-fun dfg_idx@%index () (_ BitVec 64))
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
 (let (($t1 (=> (and true (bvsgt (_ bv3 64) (_ bv0 64))) true)))
 (let (($t2 (and $t1 $t1)))
 (not $t2))))
(assert
 (let ((?t3 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t4 (bvmul ?t3 (_ bv8 64))))
 (let (($t5 (bvule ?t4 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (let (($t6 (= (_ bv47 64) (bvadd ?t4 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (and $t6 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t3 (_ bv2305843009213693951 64)) $t5))))))
(assert
 (let ((?t3 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t4 (bvmul ?t3 (_ bv8 64))))
 (let (($t5 (bvule ?t4 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (let (($t6 (= (_ bv47 64) (bvadd ?t4 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (and $t6 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t3 (_ bv2305843009213693951 64)) $t5))))))
(assert
 (= dfg_idx@%index scf_iv@12_5))
(check-sat)
