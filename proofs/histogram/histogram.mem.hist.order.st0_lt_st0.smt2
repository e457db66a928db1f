; loom verify obligation mem.hist.order.st0<st0 of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x3171 (* 2 q0.first.st0.k0)))
(let ((?x3076 (+ ?x3171 0)))
(let ((?x3359 (* 2 q0.second.st0.k0)))
(let ((?x3192 (+ ?x3359 0)))
(let (($x2884 (or (< ?x3192 ?x3076) (and (= ?x3192 ?x3076) false))))
(let (($x2908 (and (= ?x3076 ?x3192) false)))
(let (($x3051 (or (< ?x3076 ?x3192) $x2908)))
(let (($x3122 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x2908) (or (and $x3051 (not $x3051)) (and $x2884 (not $x2884))))))
(or $x3122))))))))))
(check-sat)
