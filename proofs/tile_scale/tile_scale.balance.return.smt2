; loom verify obligation balance.return of @tile_scale
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (or (and (xor true true))))
(check-sat)
