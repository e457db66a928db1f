; loom verify obligation balance.return of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x2739 (xor true true)))
(let (($x2783 (and $x2739)))
(or $x2783))))
(check-sat)
