; loom verify obligation mem.y.order.st0<st0 of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x4272 (* 2 q0.first.st0.k0)))
(let ((?x4336 (+ ?x4272 0)))
(let ((?x4295 (* 2 q0.second.st0.k0)))
(let ((?x3417 (+ ?x4295 0)))
(let (($x4324 (or (< ?x3417 ?x4336) (and (= ?x3417 ?x4336) false))))
(let (($x4372 (and (= ?x4336 ?x3417) false)))
(let (($x4444 (or (< ?x4336 ?x3417) $x4372)))
(let (($x4316 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x4372) (or (and $x4444 (not $x4444)) (and $x4324 (not $x4324))))))
(or $x4316))))))))))
(check-sat)
