; loom verify obligation mem.y.order.ld1<st0 of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.ld1.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x4356 (* 2 q0.first.ld1.k0)))
(let ((?x4352 (+ ?x4356 0)))
(let ((?x4295 (* 2 q0.second.st0.k0)))
(let ((?x3417 (+ ?x4295 0)))
(let (($x4511 (or (< ?x3417 ?x4352) (and (= ?x3417 ?x4352) false))))
(let (($x4421 (or (< ?x4352 ?x3417) (and (= ?x4352 ?x3417) true))))
(let (($x4380 (and (and (>= q0.first.ld1.k0 0) (>= q0.second.st0.k0 0)) true (not (and (= ?x4352 ?x3417) false)) (or (and $x4421 (not $x4421)) (and $x4511 (not $x4511))))))
(or $x4380)))))))))
(check-sat)
