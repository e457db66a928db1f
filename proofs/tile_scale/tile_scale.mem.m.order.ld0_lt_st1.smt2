; loom verify obligation mem.m.order.ld0<st1 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.ld0.k1 () Int)
(declare-fun q0.first.ld0.k0 () Int)
(assert
 (let (($t1 (not false)))
(let (($t2 (and (and (>= q0.first.ld0.k0 0) (>= q0.first.ld0.k1 0)) true $t1 (or (and true (not true)) (and false $t1)))))
(or $t2))))
(check-sat)
