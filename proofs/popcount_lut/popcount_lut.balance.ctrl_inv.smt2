; loom verify obligation balance.%ctrl_inv of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let ((?x4192 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4230 (bvslt (_ bv0 64) ?x4192)))
(let (($x4368 (and $x4230)))
(let (($x4376 (>= N_L0 1)))
(let (($x4344 (and $x4230 $x4376)))
(let (($x4436 (xor $x4344 $x4368)))
(let (($x4316 (= $x4376 $x4230)))
(let (($x4312 (>= N_L0 0)))
(let (($x4500 (and $x4312 $x4316 $x4436)))
(or $x4500)))))))))))
(check-sat)
