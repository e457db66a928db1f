; loom verify obligation balance.return of @find_first
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x3090 (xor true true)))
(let (($x3156 (and $x3090)))
(or $x3156 $x3156))))
(check-sat)
