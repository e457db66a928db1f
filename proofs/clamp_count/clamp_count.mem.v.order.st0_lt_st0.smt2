; loom verify obligation mem.v.order.st0<st0 of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x99 (* 2 q0.first.st0.k0)))
(let ((?x53 (+ ?x99 0)))
(let ((?x337 (* 2 q0.second.st0.k0)))
(let ((?x100 (+ ?x337 0)))
(let (($x145 (or (< ?x100 ?x53) (and (= ?x100 ?x53) false))))
(let (($x120 (and (= ?x53 ?x100) false)))
(let (($x86 (or (< ?x53 ?x100) $x120)))
(let (($x292 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $x120) (or (and $x86 (not $x86)) (and $x145 (not $x145))))))
(or $x292))))))))))
(check-sat)
