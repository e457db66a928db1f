; loom verify obligation refine.store@20:5 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-sort f32 0)
(declare-fun arg_s () f32)
(declare-fun arith.remui___0->index_BitVec_64__BitVec_64_ ((_ BitVec 64) (_ BitVec 64)) (_ BitVec 64))
(declare-fun arith.divui___0->index_BitVec_64__BitVec_64_ ((_ BitVec 64) (_ BitVec 64)) (_ BitVec 64))
(assert
 (let (($t1 (=> true (= arg_s arg_s))))
 (let (($t2 (=> true (= (_ bv47 64) (_ bv47 64)))))
 (let (($t3 (= true true)))
 (let (($t4 (and $t3 $t2 $t1)))
 (not $t4))))))
(assert
 (let ((?t5 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t6 (bvmul ?t5 (_ bv8 64))))
 (let (($t7 (bvule ?t6 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (let (($t8 (= (_ bv47 64) (bvadd ?t6 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
 (and $t8 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t5 (_ bv2305843009213693951 64)) $t7))))))
(assert
 (let ((?t5 (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
(let ((?t6 (bvmul ?t5 (_ bv8 64))))
(let (($t7 (bvule ?t6 (bvsub (_ bv18446744073709551615 64) (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
(let (($t8 (= (_ bv47 64) (bvadd ?t6 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))))
(and $t8 (bvult (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) (bvule ?t5 (_ bv2305843009213693951 64)) $t7))))))
(check-sat)
