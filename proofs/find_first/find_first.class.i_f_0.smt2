; loom verify obligation class.%i_f_0 of @find_first
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (xor true true))
(check-sat)
