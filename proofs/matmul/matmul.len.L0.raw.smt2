; loom verify obligation len.L0.raw of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%A__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let ((?x4035 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4038 (bvslt (_ bv0 64) ?x4035)))
(let (($x4174 (and $x4038)))
(let (($x2678 (xor $x4174 $x4174)))
(let (($x2134 (and $x2678)))
(or $x2134 $x2134)))))))
(check-sat)
