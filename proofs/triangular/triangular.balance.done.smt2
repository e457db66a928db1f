; loom verify obligation balance.%done of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x5689 (xor true true)))
(let (($x5658 (and $x5689)))
(or $x5658 $x5658))))
(check-sat)
