; loom verify obligation balance.%done of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x4891 (xor true true)))
(let (($x4191 (and $x4891)))
(or $x4191))))
(check-sat)
