; loom verify obligation balance.%guard of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x4244 (xor true true)))
(let (($x4308 (and $x4244)))
(or $x4308))))
(check-sat)
