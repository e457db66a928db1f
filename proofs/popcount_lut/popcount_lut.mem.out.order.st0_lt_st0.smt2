; loom verify obligation mem.out.order.st0<st0 of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x4180 (* 2 q0.first.st0.k0)))
(let ((?x3885 (+ ?x4180 0)))
(let ((?x4064 (* 2 q0.second.st0.k0)))
(let ((?x4220 (+ ?x4064 0)))
(let (($x4240 (or (< ?x4220 ?x3885) (and (= ?x4220 ?x3885) false))))
(let (($x4067 (and (= ?x3885 ?x4220) false)))
(let (($x3803 (or (< ?x3885 ?x4220) $x4067)))
(let (($x4160 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x4067) (or (and $x3803 (not $x3803)) (and $x4240 (not $x4240))))))
(or $x4160))))))))))
(check-sat)
