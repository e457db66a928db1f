; loom verify obligation mem.y.order.st0<st0 of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x5691 (* 2 q0.first.st0.k0)))
(let ((?x5734 (+ ?x5691 0)))
(let ((?x5683 (* 2 q0.second.st0.k0)))
(let ((?x5666 (+ ?x5683 0)))
(let (($x5112 (or (< ?x5666 ?x5734) (and (= ?x5666 ?x5734) false))))
(let (($x5645 (and (= ?x5734 ?x5666) false)))
(let (($x5532 (or (< ?x5734 ?x5666) $x5645)))
(let (($x5689 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x5645) (or (and $x5532 (not $x5532)) (and $x5112 (not $x5112))))))
(or $x5689))))))))))
(check-sat)
