; loom verify obligation balance.%ctrl_t of @dot
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
