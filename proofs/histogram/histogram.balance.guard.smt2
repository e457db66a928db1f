; loom verify obligation balance.%guard of @histogram
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
