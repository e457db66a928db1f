; loom verify obligation balance.%acc of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
(let (($t2 (not $t1)))
(let (($t3 (and $t2)))
(let (($t4 (xor $t3 $t3)))
(let (($t5 (and $t4)))
(let (($t6 (and $t1)))
(let (($t7 (xor $t6 $t6)))
(let (($t8 (and $t7)))
(or $t8 $t5))))))))))
(check-sat)
