; loom verify obligation balance.return of @collatz
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x2445 (xor true true)))
(let (($x2362 (and $x2445)))
(or $x2362 $x2362 $x2362))))
(check-sat)
