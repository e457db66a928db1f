; loom verify obligation balance.%hi_t of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x203 (xor true true)))
(let (($x179 (and $x203)))
(or $x179))))
(check-sat)
