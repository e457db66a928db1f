; loom verify obligation len.L0.raw of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%y__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?t1 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
(let (($t2 (bvslt (_ bv0 64) ?t1)))
(let (($t3 (and $t2)))
(let (($t4 (xor $t3 $t3)))
(let (($t5 (and $t4)))
(or $t5 $t5)))))))
(check-sat)
