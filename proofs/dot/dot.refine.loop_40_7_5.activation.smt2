; loom verify obligation refine.loop@7:5.activation of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
(let (($t2 (and true $t1)))
(let (($t3 (and (=> (and $t2 $t1) true) (=> $t2 $t2))))
(not $t3)))))
(check-sat)
