; loom verify obligation len.L0.raw of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%data__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?x2731 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
(let (($x2725 (bvslt (_ bv0 64) ?x2731)))
(let (($x2723 (and $x2725)))
(let (($x3053 (xor $x2723 $x2723)))
(let (($x2688 (and $x3053)))
(or $x2688 $x2688)))))))
(check-sat)
