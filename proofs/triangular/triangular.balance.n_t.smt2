; loom verify obligation balance.%n_t of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x5689 (xor true true)))
(let (($x5792 (and $x5689)))
(or $x5792))))
(check-sat)
