; loom verify obligation balance.%done of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x4244 (xor true true)))
(let (($x4262 (and $x4244)))
(or $x4262 $x4262))))
(check-sat)
