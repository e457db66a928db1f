; loom verify obligation len.L0.raw of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%y__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
(let (($x5714 (bvslt (_ bv0 64) ?x5713)))
(let (($x5674 (and $x5714)))
(let (($x5609 (xor $x5674 $x5674)))
(let (($x5941 (and $x5609)))
(or $x5941 $x5941)))))))
(check-sat)
