; loom verify obligation balance.%out_ctrl_t of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($t1 (xor true true)))
(let (($t2 (and $t1)))
(or $t2))))
(check-sat)
