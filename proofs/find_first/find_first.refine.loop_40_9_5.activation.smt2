; loom verify obligation refine.loop@9:5.activation of @find_first
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (let (($t1 (= true true)))
(not $t1)))
(check-sat)
