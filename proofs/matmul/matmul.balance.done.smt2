; loom verify obligation balance.%done of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x2675 (xor true true)))
(let (($x3051 (and $x2675)))
(or $x3051 $x3051))))
(check-sat)
