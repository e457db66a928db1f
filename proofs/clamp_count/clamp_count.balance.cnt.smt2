; loom verify obligation balance.%cnt of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?t1 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($t2 (bvslt (_ bv0 64) ?t1)))
(let (($t3 (not $t2)))
(let (($t4 (and $t3)))
(let (($t5 (xor $t4 $t4)))
(let (($t6 (and $t5)))
(let (($t7 (and $t2)))
(let (($t8 (xor $t7 $t7)))
(let (($t9 (and $t8)))
(or $t9 $t6)))))))))))
(check-sat)
