; loom verify obligation class.%y_body_done_t of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun arg_n () (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_3 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
 (let (($t2 (>= N_L0 1)))
 (= $t2 $t1))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?t3 (index_3 j_L0)))
 (let (($t4 (= (_ bv0 64) ?t3)))
 (let (($t5 (= j_L0 0)))
 (=> $t5 $t4)))))
(assert
 (let ((?t3 (index_3 j_L0)))
 (let (($t6 (bvsle (_ bv0 64) ?t3)))
 (let (($t7 (<= j_L0 N_L0)))
 (=> $t7 $t6)))))
(assert
 (let ((?t3 (index_3 j_L0)))
 (let (($t8 (bvslt ?t3 arg_n)))
 (let (($t9 (< j_L0 N_L0)))
 (=> $t9 $t8)))))
(assert
 (let ((?t3 (index_3 j_L0)))
 (let (($t8 (bvslt ?t3 arg_n)))
 (let (($t10 (not $t8)))
 (let (($t11 (= j_L0 N_L0)))
 (=> $t11 $t10))))))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
(let ((?t12 (- N_L0 1)))
(let (($t13 (< j_L0 ?t12)))
(let (($t9 (< j_L0 N_L0)))
(let (($t14 (and $t9 $t13 $t1)))
(xor $t14 $t14)))))))
(check-sat)
