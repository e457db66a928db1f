; loom verify obligation mem.y.order.st0<st0 of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x4353 (* 2 q0.first.st0.k0)))
(let ((?x5063 (+ ?x4353 0)))
(let ((?x4154 (* 2 q0.second.st0.k0)))
(let ((?x524 (+ ?x4154 0)))
(let (($x5520 (or (< ?x524 ?x5063) (and (= ?x524 ?x5063) false))))
(let (($x5457 (and (= ?x5063 ?x524) false)))
(let (($x5469 (or (< ?x5063 ?x524) $x5457)))
(let (($x4065 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x5457) (or (and $x5469 (not $x5469)) (and $x5520 (not $x5520))))))
(or $x4065))))))))))
(check-sat)
