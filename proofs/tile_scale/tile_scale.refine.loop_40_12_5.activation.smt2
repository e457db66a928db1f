; loom verify obligation refine.loop@12:5.activation of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arith.remui___0->index_BitVec_64__BitVec_64_ ((_ BitVec 64) (_ BitVec 64)) (_ BitVec 64))
(declare-fun arith.divui___0->index_BitVec_64__BitVec_64_ ((_ BitVec 64) (_ BitVec 64)) (_ BitVec 64))
(assert
 (let (($t1 (=> (and true (bvsgt (_ bv2 64) (_ bv0 64))) true)))
 (let (($t2 (and $t1 $t1)))
 (not $t2))))
(assert
 (let ((?t3 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
 (let ((?t4 (bvadd (bvmul (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) ?t3)))
 (and (= (_ bv47 64) ?t4) (bvult ?t3 (_ bv8 64))))))
(assert
 (let ((?t3 (arith.remui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64))))
(let ((?t4 (bvadd (bvmul (arith.divui___0->index_BitVec_64__BitVec_64_ (_ bv47 64) (_ bv8 64)) (_ bv8 64)) ?t3)))
(and (= (_ bv47 64) ?t4) (bvult ?t3 (_ bv8 64))))))
(check-sat)
