; loom verify obligation mem.out.order.st0<st0 of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x4308 (* 2 q0.first.st0.k0)))
(let ((?x4444 (+ ?x4308 0)))
(let ((?x4274 (* 2 q0.second.st0.k0)))
(let ((?x4326 (+ ?x4274 0)))
(let (($x3725 (or (< ?x4326 ?x4444) (and (= ?x4326 ?x4444) false))))
(let (($x4356 (and (= ?x4444 ?x4326) false)))
(let (($x4416 (or (< ?x4444 ?x4326) $x4356)))
(let (($x4372 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x4356) (or (and $x4416 (not $x4416)) (and $x3725 (not $x3725))))))
(or $x4372))))))))))
(check-sat)
