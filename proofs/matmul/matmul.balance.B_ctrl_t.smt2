; loom verify obligation balance.%B_ctrl_t of @matmul
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
