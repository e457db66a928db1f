; loom verify obligation refine.loop@9:5.activation of @find_first
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (not (= true true)))
(check-sat)
