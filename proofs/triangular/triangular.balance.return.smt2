; loom verify obligation balance.return of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x5689 (xor true true)))
(let (($x5630 (and $x5689)))
(or $x5630))))
(check-sat)
