; loom verify obligation class.%v_body_done_f of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x4192 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x4230 (bvslt (_ bv0 64) ?x4192)))
 (let (($x4376 (>= N_L0 1)))
 (= $x4376 $x4230)))))
(assert
 (let (($x4376 (>= N_L0 1)))
(let ((?x4192 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4230 (bvslt (_ bv0 64) ?x4192)))
(let (($x4344 (and $x4230 $x4376)))
(xor $x4344 $x4344))))))
(check-sat)
