; loom verify obligation balance.%n_t of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x203 (xor true true)))
(let (($x489 (and $x203)))
(or $x489))))
(check-sat)
