; loom verify obligation class.%a_before_done_f of @find_first
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (xor true true))
(check-sat)
