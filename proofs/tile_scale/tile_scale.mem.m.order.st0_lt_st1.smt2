; loom verify obligation mem.m.order.st0<st1 of @tile_scale
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.first.st0.k1 () Int)
(define-fun _t1 () Bool (not false))
(assert (or (and (or (and (not true) true) (and _t1 false)) (and (>= q0.first.st0.k0 0) (>= q0.first.st0.k1 0)) _t1 true)))
(check-sat)
