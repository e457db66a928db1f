; loom verify obligation balance.%guard of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($t1 (xor true true)))
(let (($t2 (and $t1)))
(or $t2))))
(check-sat)
