; loom verify obligation balance.%7 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x5582 (xor true true)))
(let (($x5627 (and $x5582)))
(or $x5627))))
(check-sat)
