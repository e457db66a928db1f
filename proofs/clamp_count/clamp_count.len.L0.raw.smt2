; loom verify obligation len.L0.raw of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?x134 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x218 (bvslt (_ bv0 64) ?x134)))
(let (($x199 (and $x218)))
(let (($x260 (xor $x199 $x199)))
(let (($x290 (and $x260)))
(or $x290 $x290)))))))
(check-sat)
