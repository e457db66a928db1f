; loom verify obligation balance.%done of @saxpy
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
