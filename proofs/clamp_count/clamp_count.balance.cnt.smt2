; loom verify obligation balance.%cnt of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?x134 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x218 (bvslt (_ bv0 64) ?x134)))
(let (($x242 (not $x218)))
(let (($x304 (and $x242)))
(let (($x20 (xor $x304 $x304)))
(let (($x269 (and $x20)))
(let (($x199 (and $x218)))
(let (($x260 (xor $x199 $x199)))
(let (($x42 (and $x260)))
(or $x42 $x269)))))))))))
(check-sat)
