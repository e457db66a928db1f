; loom verify obligation balance.return of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x2675 (xor true true)))
(let (($x3058 (and $x2675)))
(or $x3058))))
(check-sat)
