; loom verify obligation class.%in_body_done_t_0 of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%in__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x4341 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x4496 (bvsub ?x4341 (_ bv1 64))))
 (let (($x4607 (bvslt (_ bv1 64) ?x4496)))
 (let (($x4410 (>= N_L0 1)))
 (= $x4410 $x4607))))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x4416 (index_1 j_L0)))
 (let (($x4326 (= (_ bv1 64) ?x4416)))
 (let (($x4420 (= j_L0 0)))
 (=> $x4420 $x4326)))))
(assert
 (let ((?x4416 (index_1 j_L0)))
 (let (($x3417 (bvsle (_ bv1 64) ?x4416)))
 (let (($x4295 (<= j_L0 N_L0)))
 (=> $x4295 $x3417)))))
(assert
 (let ((?x4341 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x4496 (bvsub ?x4341 (_ bv1 64))))
 (let ((?x4416 (index_1 j_L0)))
 (let (($x4272 (bvslt ?x4416 ?x4496)))
 (let (($x4478 (< j_L0 N_L0)))
 (=> $x4478 $x4272)))))))
(assert
 (let ((?x4341 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x4496 (bvsub ?x4341 (_ bv1 64))))
 (let ((?x4416 (index_1 j_L0)))
 (let (($x4272 (bvslt ?x4416 ?x4496)))
 (let (($x4903 (not $x4272)))
 (let (($x4902 (= j_L0 N_L0)))
 (=> $x4902 $x4903))))))))
(assert
 (let ((?x4341 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
(let ((?x4496 (bvsub ?x4341 (_ bv1 64))))
(let (($x4607 (bvslt (_ bv1 64) ?x4496)))
(let (($x4478 (< j_L0 N_L0)))
(let ((?x2670 (- N_L0 1)))
(let (($x4411 (< j_L0 ?x2670)))
(let (($x4857 (and $x4411 $x4478 $x4607)))
(xor $x4857 $x4857)))))))))
(check-sat)
