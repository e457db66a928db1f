; loom verify obligation class.%afterValue_0 of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun index_1 (Int) (_ BitVec 64))
(declare-fun j_L1 () Int)
(declare-fun index_0_6 (Int Int) (_ BitVec 64))
(assert
 (let ((?x4294 (N_L1 j_L0)))
 (>= ?x4294 0)))
(assert
 (let ((?x4294 (N_L1 j_L0)))
 (= ?x4294 8)))
(assert
 (let (($x4278 (bvslt (_ bv0 64) (_ bv8 64))))
 (let ((?x4294 (N_L1 j_L0)))
 (let (($x4301 (>= ?x4294 1)))
 (= $x4301 $x4278)))))
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
 (>= j_L1 0))
(assert
 (let ((?x4294 (N_L1 j_L0)))
 (<= j_L1 ?x4294)))
(assert
 (let ((?x4428 (index_0_6 j_L0 j_L1)))
 (let (($x4480 (= (_ bv0 64) ?x4428)))
 (let (($x4420 (= j_L1 0)))
 (=> $x4420 $x4480)))))
(assert
 (let ((?x4428 (index_0_6 j_L0 j_L1)))
 (let (($x4348 (bvsle (_ bv0 64) ?x4428)))
 (let ((?x4294 (N_L1 j_L0)))
 (let (($x4380 (<= j_L1 ?x4294)))
 (=> $x4380 $x4348))))))
(assert
 (let ((?x4428 (index_0_6 j_L0 j_L1)))
 (let (($x4372 (bvsgt (_ bv8 64) ?x4428)))
 (let ((?x4294 (N_L1 j_L0)))
 (let (($x4340 (< j_L1 ?x4294)))
 (=> $x4340 $x4372))))))
(assert
 (let ((?x4428 (index_0_6 j_L0 j_L1)))
 (let (($x4372 (bvsgt (_ bv8 64) ?x4428)))
 (let (($x4341 (not $x4372)))
 (let ((?x4294 (N_L1 j_L0)))
 (let (($x4410 (= j_L1 ?x4294)))
 (=> $x4410 $x4341)))))))
(assert
 (let ((?x4294 (N_L1 j_L0)))
(let (($x4340 (< j_L1 ?x4294)))
(let ((?x4192 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4230 (bvslt (_ bv0 64) ?x4192)))
(let (($x3450 (< j_L0 N_L0)))
(let (($x4485 (and $x3450 $x4230 $x4340)))
(xor $x4485 $x4485))))))))
(check-sat)
