; loom verify obligation class.%x_f of @collatz
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (xor true true))
(check-sat)
