; loom verify obligation balance.return of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x4891 (xor true true)))
(let (($x5595 (and $x4891)))
(or $x5595))))
(check-sat)
