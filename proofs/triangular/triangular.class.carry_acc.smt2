; loom verify obligation class.%carry_acc of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%y__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(declare-fun j_L1 () Int)
(declare-fun index_0_5 (Int Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x5714 (bvslt (_ bv0 64) ?x5713)))
 (let (($x5673 (>= N_L0 1)))
 (= $x5673 $x5714)))))
(assert
 (let ((?x5572 (N_L1 j_L0)))
 (>= ?x5572 0)))
(assert
 (let ((?x5702 (index_1 j_L0)))
 (let ((?x5634 (bvadd ?x5702 (_ bv1 64))))
 (let (($x5589 (bvslt (_ bv0 64) ?x5634)))
 (let ((?x5572 (N_L1 j_L0)))
 (let (($x5734 (>= ?x5572 1)))
 (= $x5734 $x5589)))))))
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
 (>= j_L1 0))
(assert
 (let ((?x5572 (N_L1 j_L0)))
 (<= j_L1 ?x5572)))
(assert
 (let ((?x5649 (index_0_5 j_L0 j_L1)))
 (let (($x5535 (= (_ bv0 64) ?x5649)))
 (let (($x5704 (= j_L1 0)))
 (=> $x5704 $x5535)))))
(assert
 (let ((?x5649 (index_0_5 j_L0 j_L1)))
 (let (($x5579 (bvsle (_ bv0 64) ?x5649)))
 (let ((?x5572 (N_L1 j_L0)))
 (let (($x5593 (<= j_L1 ?x5572)))
 (=> $x5593 $x5579))))))
(assert
 (let ((?x5702 (index_1 j_L0)))
 (let ((?x5634 (bvadd ?x5702 (_ bv1 64))))
 (let ((?x5649 (index_0_5 j_L0 j_L1)))
 (let (($x5632 (bvslt ?x5649 ?x5634)))
 (let ((?x5572 (N_L1 j_L0)))
 (let (($x5694 (< j_L1 ?x5572)))
 (=> $x5694 $x5632))))))))
(assert
 (let ((?x5702 (index_1 j_L0)))
 (let ((?x5634 (bvadd ?x5702 (_ bv1 64))))
 (let ((?x5649 (index_0_5 j_L0 j_L1)))
 (let (($x5632 (bvslt ?x5649 ?x5634)))
 (let (($x5711 (not $x5632)))
 (let ((?x5572 (N_L1 j_L0)))
 (let (($x5561 (= j_L1 ?x5572)))
 (=> $x5561 $x5711)))))))))
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
(let (($x5714 (bvslt (_ bv0 64) ?x5713)))
(let (($x5691 (< j_L0 N_L0)))
(let ((?x5702 (index_1 j_L0)))
(let ((?x5634 (bvadd ?x5702 (_ bv1 64))))
(let (($x5589 (bvslt (_ bv0 64) ?x5634)))
(let (($x5791 (and $x5589 $x5691 $x5714)))
(xor $x5791 $x5791)))))))))
(check-sat)
