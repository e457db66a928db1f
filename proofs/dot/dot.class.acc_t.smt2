; loom verify obligation class.%acc_t of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun arg_n () (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_2 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let (($x2520 (bvslt (_ bv0 64) arg_n)))
 (let (($x2530 (>= N_L0 1)))
 (= $x2530 $x2520))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x2577 (index_2 j_L0)))
 (let (($x2581 (= (_ bv0 64) ?x2577)))
 (let (($x2526 (= j_L0 0)))
 (=> $x2526 $x2581)))))
(assert
 (let ((?x2577 (index_2 j_L0)))
 (let (($x2532 (bvsle (_ bv0 64) ?x2577)))
 (let (($x2493 (<= j_L0 N_L0)))
 (=> $x2493 $x2532)))))
(assert
 (let ((?x2577 (index_2 j_L0)))
 (let (($x2611 (bvslt ?x2577 arg_n)))
 (let (($x2448 (< j_L0 N_L0)))
 (=> $x2448 $x2611)))))
(assert
 (let ((?x2577 (index_2 j_L0)))
 (let (($x2611 (bvslt ?x2577 arg_n)))
 (let (($x2563 (not $x2611)))
 (let (($x2545 (= j_L0 N_L0)))
 (=> $x2545 $x2563))))))
(assert
 (let (($x2520 (bvslt (_ bv0 64) arg_n)))
(let (($x2448 (< j_L0 N_L0)))
(let (($x2542 (and $x2448 $x2520)))
(xor $x2542 $x2542)))))
(check-sat)
