; loom verify obligation balance.%k_t of @matmul
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
