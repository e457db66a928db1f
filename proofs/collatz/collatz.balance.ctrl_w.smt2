; loom verify obligation balance.%ctrl_w of @collatz
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
