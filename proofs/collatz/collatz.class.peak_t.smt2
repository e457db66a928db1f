; loom verify obligation class.%peak_t of @collatz
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun arg_n () (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun carry_x_2 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x2417 ((_ extract 63 1) arg_n)))
 (let (($x2440 (= ?x2417 (_ bv0 63))))
 (let (($x2409 (not $x2440)))
 (let (($x2510 (>= N_L0 1)))
 (= $x2510 $x2409))))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x2468 (carry_x_2 j_L0)))
 (let (($x2452 (= j_L0 0)))
 (let ((?x2277 (ite $x2452 arg_n ?x2468)))
 (let (($x1964 (bvugt ?x2277 (_ bv1 64))))
 (let (($x2460 (< j_L0 N_L0)))
 (=> $x2460 $x1964)))))))
(assert
 (let ((?x2468 (carry_x_2 j_L0)))
 (let (($x2452 (= j_L0 0)))
 (let ((?x2277 (ite $x2452 arg_n ?x2468)))
 (let (($x1964 (bvugt ?x2277 (_ bv1 64))))
 (let (($x2420 (not $x1964)))
 (let (($x2153 (= j_L0 N_L0)))
 (=> $x2153 $x2420))))))))
(assert
 (let (($x2460 (< j_L0 N_L0)))
(let (($x2244 (and $x2460)))
(xor $x2244 $x2244))))
(check-sat)
