; loom verify obligation mem.hist.order.ld1<st0 of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.ld1.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?t1 (* 2 q0.first.ld1.k0)))
(let ((?t2 (+ ?t1 0)))
(let ((?t3 (* 2 q0.second.st0.k0)))
(let ((?t4 (+ ?t3 0)))
(let (($t5 (or (< ?t4 ?t2) (and (= ?t4 ?t2) false))))
(let (($t6 (or (< ?t2 ?t4) (and (= ?t2 ?t4) true))))
(let (($t7 (and (and (>= q0.first.ld1.k0 0) (>= q0.second.st0.k0 0)) true (not (and (= ?t2 ?t4) false)) (or (and $t6 (not $t6)) (and $t5 (not $t5))))))
(or $t7)))))))))
(check-sat)
