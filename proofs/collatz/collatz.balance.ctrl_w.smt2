; loom verify obligation balance.%ctrl_w of @collatz
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x2445 (xor true true)))
(let (($x2382 (and $x2445)))
(or $x2382))))
(check-sat)
