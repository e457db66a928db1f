; loom verify obligation balance.%ctrl_t of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x4217 (xor true true)))
(let (($x4341 (and $x4217)))
(or $x4341))))
(check-sat)
