; loom verify obligation fsm.stream.pre.%index of @tile_scale
; verdict: proved (unsat means proved)
(set-logic ALL)
(assert (and true true true))
(assert (not (or (bvsge (_ bv0 64) (_ bv2 64)) (and (bvsle (_ bv2 64) (bvadd (_ bv1 64) (bvsub (_ bv9223372036854775807 64) (_ bv1 64)))) (bvsgt (_ bv1 64) (_ bv0 64))))))
(assert true)
(check-sat)
