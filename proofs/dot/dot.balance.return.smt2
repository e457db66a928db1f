; loom verify obligation balance.return of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x2599 (xor true true)))
(let (($x2541 (and $x2599)))
(or $x2541 $x2541))))
(check-sat)
