; loom verify obligation len.L0.raw of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x5582 (xor true true)))
(let (($x5646 (and $x5582)))
(or $x5646 $x5646))))
(check-sat)
