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
 (let ((?t5 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t6 (bvadd (bvmul (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) ?t5)))
 (and (= (_ bv47 64) ?t6) (bvult ?t5 (_ bv8 64))))))
(assert
 (let ((?t5 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
(let ((?t6 (bvadd (bvmul (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) ?t5)))
(and (= (_ bv47 64) ?t6) (bvult ?t5 (_ bv8 64))))))
(check-sat)
