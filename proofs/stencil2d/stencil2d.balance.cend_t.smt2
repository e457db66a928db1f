; loom verify obligation balance.%cend_t of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x4891 (xor true true)))
(let (($x4705 (and $x4891)))
(or $x4705))))
(check-sat)
