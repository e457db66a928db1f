; loom verify obligation mem.y.order.ld1<st0 of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.ld1.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x4112 (* 2 q0.first.ld1.k0)))
(let ((?x4316 (+ ?x4112 0)))
(let ((?x4260 (* 2 q0.second.st0.k0)))
(let ((?x4117 (+ ?x4260 0)))
(let (($x4133 (or (< ?x4117 ?x4316) (and (= ?x4117 ?x4316) false))))
(let (($x4062 (or (< ?x4316 ?x4117) (and (= ?x4316 ?x4117) true))))
(let (($x4120 (and (and (>= q0.first.ld1.k0 0) (>= q0.second.st0.k0 0)) true (not (and (= ?x4316 ?x4117) false)) (or (and $x4062 (not $x4062)) (and $x4133 (not $x4133))))))
(or $x4120)))))))))
(check-sat)
