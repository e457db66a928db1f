; loom verify obligation refine.loop@9:5.activation of @collatz
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun |arg:n| () (_ BitVec 64))
(define-fun _t1 () Bool (=> (and (bvugt |arg:n| (_ bv1 64)) true) true))
(assert (not (and _t1 _t1)))
(check-sat)
