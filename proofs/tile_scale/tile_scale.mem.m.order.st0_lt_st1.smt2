; loom verify obligation mem.m.order.st0<st1 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k1 () Int)
(declare-fun q0.first.st0.k0 () Int)
(assert
 (let (($x5461 (not false)))
(let (($x5456 (and (and (>= q0.first.st0.k0 0) (>= q0.first.st0.k1 0)) true $x5461 (or (and true (not true)) (and false $x5461)))))
(or $x5456))))
(check-sat)
