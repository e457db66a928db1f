; loom verify obligation mem.hist.order.ld1<st0 of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.ld1.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x2656 (* 2 q0.first.ld1.k0)))
(let ((?x2750 (+ ?x2656 0)))
(let ((?x2763 (* 2 q0.second.st0.k0)))
(let ((?x2691 (+ ?x2763 0)))
(let (($x2709 (or (< ?x2691 ?x2750) (and (= ?x2691 ?x2750) false))))
(let (($x2734 (or (< ?x2750 ?x2691) (and (= ?x2750 ?x2691) true))))
(let (($x2415 (and (and (>= q0.first.ld1.k0 0) (>= q0.second.st0.k0 0)) true (not (and (= ?x2750 ?x2691) false)) (or (and $x2734 (not $x2734)) (and $x2709 (not $x2709))))))
(or $x2415)))))))))
(check-sat)
