; loom verify obligation class.%carry_steps of @collatz
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
 (let ((?t1 ((_ extract 63 1) arg_n)))
 (let (($t2 (= ?t1 (_ bv0 63))))
 (let (($t3 (not $t2)))
 (let (($t4 (>= N_L0 1)))
 (= $t4 $t3))))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t5 (carry_x_2 j_L0)))
 (let (($t6 (= j_L0 0)))
 (let ((?t7 (ite $t6 arg_n ?t5)))
 (let (($t8 (bvugt ?t7 (_ bv1 64))))
 (let (($t9 (< j_L0 N_L0)))
 (=> $t9 $t8)))))))
(assert
 (let ((?t5 (carry_x_2 j_L0)))
 (let (($t6 (= j_L0 0)))
 (let ((?t7 (ite $t6 arg_n ?t5)))
 (let (($t8 (bvugt ?t7 (_ bv1 64))))
 (let (($t10 (not $t8)))
 (let (($t11 (= j_L0 N_L0)))
 (=> $t11 $t10))))))))
(assert
 (xor true true))
(check-sat)
