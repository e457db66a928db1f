; loom verify obligation balance.%done of @triangular
; verdict: proved (unsat means proved)
(set-logic ALL)
(define-fun _t1 () Bool (and (xor true true)))
(assert (or _t1 _t1))
(check-sat)
