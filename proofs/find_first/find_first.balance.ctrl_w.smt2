; loom verify obligation balance.%ctrl_w of @find_first
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x3090 (xor true true)))
(let (($x3191 (and $x3090)))
(or $x3191))))
(check-sat)
