; loom verify obligation balance.%y_ctrl_t of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x2599 (xor true true)))
(let (($x2593 (and $x2599)))
(or $x2593))))
(check-sat)
