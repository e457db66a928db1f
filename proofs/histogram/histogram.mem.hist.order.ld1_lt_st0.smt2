; loom verify obligation mem.hist.order.ld1<st0 of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.ld1.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x3083 (* 2 q0.first.ld1.k0)))
(let ((?x3353 (+ ?x3083 0)))
(let ((?x3359 (* 2 q0.second.st0.k0)))
(let ((?x3192 (+ ?x3359 0)))
(let (($x3012 (or (< ?x3192 ?x3353) (and (= ?x3192 ?x3353) false))))
(let (($x2875 (or (< ?x3353 ?x3192) (and (= ?x3353 ?x3192) true))))
(let (($x3367 (and (and (>= q0.first.ld1.k0 0) (>= q0.second.st0.k0 0)) true (not (and (= ?x3353 ?x3192) false)) (or (and $x2875 (not $x2875)) (and $x3012 (not $x3012))))))
(or $x3367)))))))))
(check-sat)
