; loom verify obligation balance.%key_w of @find_first
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
