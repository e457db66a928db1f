; loom verify obligation mem.hist.order.st0<st0 of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x2516 (* 2 q0.first.st0.k0)))
(let ((?x2755 (+ ?x2516 0)))
(let ((?x2763 (* 2 q0.second.st0.k0)))
(let ((?x2691 (+ ?x2763 0)))
(let (($x3053 (or (< ?x2691 ?x2755) (and (= ?x2691 ?x2755) false))))
(let (($x2530 (and (= ?x2755 ?x2691) false)))
(let (($x2731 (or (< ?x2755 ?x2691) $x2530)))
(let (($x2466 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x2530) (or (and $x2731 (not $x2731)) (and $x3053 (not $x3053))))))
(or $x2466))))))))))
(check-sat)
