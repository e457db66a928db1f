; loom verify obligation balance.return of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($x203 (xor true true)))
(let (($x525 (and $x203)))
(or $x525 $x525))))
(check-sat)
