; loom verify obligation balance.%data_ctrl_t of @histogram
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
