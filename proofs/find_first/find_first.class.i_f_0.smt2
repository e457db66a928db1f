; loom verify obligation class.%i_f_0 of @find_first
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (xor true true))
(check-sat)
