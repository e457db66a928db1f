; loom verify obligation class.%hist_loop_ctrl of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%data__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x2731 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x2725 (bvslt (_ bv0 64) ?x2731)))
 (let (($x2530 (>= N_L0 1)))
 (= $x2530 $x2725)))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x2642 (index_1 j_L0)))
 (let (($x2621 (= (_ bv0 64) ?x2642)))
 (let (($x2667 (= j_L0 0)))
 (=> $x2667 $x2621)))))
(assert
 (let ((?x2642 (index_1 j_L0)))
 (let (($x2704 (bvsle (_ bv0 64) ?x2642)))
 (let (($x2702 (<= j_L0 N_L0)))
 (=> $x2702 $x2704)))))
(assert
 (let ((?x2731 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x2642 (index_1 j_L0)))
 (let (($x2665 (bvslt ?x2642 ?x2731)))
 (let (($x2750 (< j_L0 N_L0)))
 (=> $x2750 $x2665))))))
(assert
 (let ((?x2731 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x2642 (index_1 j_L0)))
 (let (($x2665 (bvslt ?x2642 ?x2731)))
 (let (($x2720 (not $x2665)))
 (let (($x2734 (= j_L0 N_L0)))
 (=> $x2734 $x2720)))))))
(assert
 (let (($x2750 (< j_L0 N_L0)))
(let ((?x2731 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
(let (($x2725 (bvslt (_ bv0 64) ?x2731)))
(let (($x2658 (and $x2725 $x2750)))
(xor $x2658 $x2658))))))
(check-sat)
