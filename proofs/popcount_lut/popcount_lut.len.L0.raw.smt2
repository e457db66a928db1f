; loom verify obligation len.L0.raw of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?x4192 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4230 (bvslt (_ bv0 64) ?x4192)))
(let (($x4368 (and $x4230)))
(let (($x4199 (xor $x4368 $x4368)))
(let (($x4260 (and $x4199)))
(or $x4260 $x4260)))))))
(check-sat)
