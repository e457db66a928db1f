; loom verify obligation mem.m.order.ld0<st1 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.ld0.k1 () Int)
(declare-fun q0.first.ld0.k0 () Int)
(assert
 (let (($x5273 (not false)))
(let (($x5550 (and (and (>= q0.first.ld0.k0 0) (>= q0.first.ld0.k1 0)) true $x5273 (or (and true (not true)) (and false $x5273)))))
(or $x5550))))
(check-sat)
