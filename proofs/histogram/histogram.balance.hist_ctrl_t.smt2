; loom verify obligation balance.%hist_ctrl_t of @histogram
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
