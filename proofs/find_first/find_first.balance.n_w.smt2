; loom verify obligation balance.%n_w of @find_first
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x3090 (xor true true)))
(let (($x3247 (and $x3090)))
(or $x3247))))
(check-sat)
