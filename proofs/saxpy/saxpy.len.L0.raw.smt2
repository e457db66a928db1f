; loom verify obligation len.L0.raw of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
(let (($t2 (and $t1)))
(let (($t3 (xor $t2 $t2)))
(let (($t4 (and $t3)))
(or $t4 $t4))))))
(check-sat)
