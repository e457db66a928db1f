; loom verify obligation class.%a_before_done_f of @find_first
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (xor true true))
(check-sat)
