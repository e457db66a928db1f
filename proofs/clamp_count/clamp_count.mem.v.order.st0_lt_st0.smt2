; loom verify obligation mem.v.order.st0<st0 of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x224 (* 2 q0.first.st0.k0)))
(let ((?x130 (+ ?x224 0)))
(let ((?x254 (* 2 q0.second.st0.k0)))
(let ((?x284 (+ ?x254 0)))
(let (($x36 (or (< ?x284 ?x130) (and (= ?x284 ?x130) false))))
(let (($x108 (and (= ?x130 ?x284) false)))
(let (($x77 (or (< ?x130 ?x284) $x108)))
(let (($x139 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x108) (or (and $x77 (not $x77)) (and $x36 (not $x36))))))
(or $x139))))))))))
(check-sat)
