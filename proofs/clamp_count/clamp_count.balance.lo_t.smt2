; loom verify obligation balance.%lo_t of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x203 (xor true true)))
(let (($x30 (and $x203)))
(or $x30))))
(check-sat)
