; loom verify obligation balance.return of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x4217 (xor true true)))
(let (($x4314 (and $x4217)))
(or $x4314))))
(check-sat)
