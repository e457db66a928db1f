; loom verify obligation refine.loop@6:5.activation of @saxpy
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun |arg:n| () (_ BitVec 64))
(define-fun _t1 () Bool (bvslt (_ bv0 64) |arg:n|))
(define-fun _t2 () Bool (and _t1 true))
(assert (not (and (=> _t2 _t2) (=> (and _t1 _t2) true))))
(check-sat)
