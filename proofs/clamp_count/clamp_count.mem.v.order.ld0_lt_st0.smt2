; loom verify obligation mem.v.order.ld0<st0 of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.ld0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x347 (* 2 q0.first.ld0.k0)))
(let ((?x183 (+ ?x347 0)))
(let ((?x337 (* 2 q0.second.st0.k0)))
(let ((?x100 (+ ?x337 0)))
(let (($x624 (or (< ?x100 ?x183) (and (= ?x100 ?x183) false))))
(let (($x65 (or (< ?x183 ?x100) (and (= ?x183 ?x100) true))))
(let (($x193 (and (and (>= q0.first.ld0.k0 0) (>= q0.second.st0.k0 0)) true (not (and (= ?x183 ?x100) false)) (or (and $x65 (not $x65)) (and $x624 (not $x624))))))
(or $x193)))))))))
(check-sat)
