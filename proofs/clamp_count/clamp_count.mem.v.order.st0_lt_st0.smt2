; loom verify obligation mem.v.order.st0<st0 of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.st0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?t1 (* 2 q0.first.st0.k0)))
(let ((?t2 (+ ?t1 0)))
(let ((?t3 (* 2 q0.second.st0.k0)))
(let ((?t4 (+ ?t3 0)))
(let (($t5 (or (< ?t4 ?t2) (and (= ?t4 ?t2) false))))
(let (($t6 (and (= ?t2 ?t4) false)))
(let (($t7 (or (< ?t2 ?t4) $t6)))
(let (($t8 (and (and (>= q0.first.st0.k0 0) (>= q0.second.st0.k0 0)) (or (and (distinct q0.first.st0.k0 q0.second.st0.k0) true)) (not $t6) (or (and $t7 (not $t7)) (and $t5 (not $t5))))))
(or $t8))))))))))
(check-sat)
