; loom verify obligation balance.%n_t of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x2739 (xor true true)))
(let (($x2732 (and $x2739)))
(or $x2732))))
(check-sat)
