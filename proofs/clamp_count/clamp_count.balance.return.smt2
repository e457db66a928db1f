; loom verify obligation balance.return of @clamp_count
; verdict: proved (unsat means proved)
(set-logic ALL)
(define-fun _t1 () Bool (and (xor true true)))
(assert (or _t1 _t1))
(check-sat)
