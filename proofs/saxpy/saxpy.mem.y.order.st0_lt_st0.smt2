; loom verify obligation mem.y.order.st0<st0 of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x4087 (* 2 q0.first.st0.k0)))
(let ((?x4127 (+ ?x4087 0)))
(let ((?x4260 (* 2 q0.second.st0.k0)))
(let ((?x4117 (+ ?x4260 0)))
(let (($x4089 (or (< ?x4117 ?x4127) (and (= ?x4117 ?x4127) false))))
(let (($x4234 (and (= ?x4127 ?x4117) false)))
(let (($x4124 (or (< ?x4127 ?x4117) $x4234)))
(let (($x4196 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x4234) (or (and $x4124 (not $x4124)) (and $x4089 (not $x4089))))))
(or $x4196))))))))))
(check-sat)
