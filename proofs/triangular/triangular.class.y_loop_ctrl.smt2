; loom verify obligation class.%y_loop_ctrl of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%y__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x5714 (bvslt (_ bv0 64) ?x5713)))
 (let (($x5673 (>= N_L0 1)))
 (= $x5673 $x5714)))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x5702 (index_1 j_L0)))
 (let (($x5696 (= (_ bv0 64) ?x5702)))
 (let (($x5692 (= j_L0 0)))
 (=> $x5692 $x5696)))))
(assert
 (let ((?x5702 (index_1 j_L0)))
 (let (($x5699 (bvsle (_ bv0 64) ?x5702)))
 (let (($x5698 (<= j_L0 N_L0)))
 (=> $x5698 $x5699)))))
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x5702 (index_1 j_L0)))
 (let (($x5717 (bvslt ?x5702 ?x5713)))
 (let (($x5691 (< j_L0 N_L0)))
 (=> $x5691 $x5717))))))
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x5702 (index_1 j_L0)))
 (let (($x5717 (bvslt ?x5702 ?x5713)))
 (let (($x5688 (not $x5717)))
 (let (($x5509 (= j_L0 N_L0)))
 (=> $x5509 $x5688)))))))
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
(let (($x5714 (bvslt (_ bv0 64) ?x5713)))
(let (($x5691 (< j_L0 N_L0)))
(let (($x5607 (and $x5691 $x5714)))
(xor $x5607 $x5607))))))
(check-sat)
