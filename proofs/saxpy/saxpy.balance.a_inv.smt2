; loom verify obligation balance.%a_inv of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
(let (($t2 (and $t1)))
(let (($t3 (>= N_L0 1)))
(let (($t4 (and $t3 $t1)))
(let (($t5 (xor $t4 $t2)))
(let (($t6 (= $t3 $t1)))
(let (($t7 (>= N_L0 0)))
(let (($t8 (and $t7 $t6 $t5)))
(or $t8))))))))))
(check-sat)
