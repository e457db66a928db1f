; loom verify obligation refine.loop@9:5.activation of @collatz
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (let (($t1 (=> (and true (bvugt arg_n (_ bv1 64))) true)))
(let (($t2 (and $t1 $t1)))
(not $t2))))
(check-sat)
