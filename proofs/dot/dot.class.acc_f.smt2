; loom verify obligation class.%acc_f of @dot
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun |arg:n| () (_ BitVec 64))
(define-fun _t1 () Bool (and (bvslt (_ bv0 64) |arg:n|)))
(assert (xor _t1 _t1))
(check-sat)
