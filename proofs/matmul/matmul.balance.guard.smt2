; loom verify obligation balance.%guard of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x2675 (xor true true)))
(let (($x2713 (and $x2675)))
(or $x2713))))
(check-sat)
