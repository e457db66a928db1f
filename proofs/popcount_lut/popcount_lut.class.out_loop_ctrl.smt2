; loom verify obligation class.%out_loop_ctrl of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x4192 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x4230 (bvslt (_ bv0 64) ?x4192)))
 (let (($x4376 (>= N_L0 1)))
 (= $x4376 $x4230)))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x4268 (index_1 j_L0)))
 (let (($x4285 (= (_ bv0 64) ?x4268)))
 (let (($x4246 (= j_L0 0)))
 (=> $x4246 $x4285)))))
(assert
 (let ((?x4268 (index_1 j_L0)))
 (let (($x4332 (bvsle (_ bv0 64) ?x4268)))
 (let (($x4440 (<= j_L0 N_L0)))
 (=> $x4440 $x4332)))))
(assert
 (let ((?x4192 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x4268 (index_1 j_L0)))
 (let (($x4212 (bvslt ?x4268 ?x4192)))
 (let (($x3450 (< j_L0 N_L0)))
 (=> $x3450 $x4212))))))
(assert
 (let ((?x4192 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x4268 (index_1 j_L0)))
 (let (($x4212 (bvslt ?x4268 ?x4192)))
 (let (($x4460 (not $x4212)))
 (let (($x4426 (= j_L0 N_L0)))
 (=> $x4426 $x4460)))))))
(assert
 (let ((?x4192 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4230 (bvslt (_ bv0 64) ?x4192)))
(let (($x3450 (< j_L0 N_L0)))
(let (($x4325 (and $x3450 $x4230)))
(xor $x4325 $x4325))))))
(check-sat)
