; loom verify obligation mem.v.order.ld0<st0 of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun q0.first.ld0.k0 () Int)
(declare-fun q0.second.st0.k0 () Int)
(assert
 (let ((?x183 (* 2 q0.first.ld0.k0)))
(let ((?x215 (+ ?x183 0)))
(let ((?x254 (* 2 q0.second.st0.k0)))
(let ((?x284 (+ ?x254 0)))
(let (($x237 (or (< ?x284 ?x215) (and (= ?x284 ?x215) false))))
(let (($x90 (or (< ?x215 ?x284) (and (= ?x215 ?x284) true))))
(let (($x255 (and (and (>= q0.first.ld0.k0 0) (>= q0.second.st0.k0 0)) true (not (and (= ?x215 ?x284) false)) (or (and $x90 (not $x90)) (and $x237 (not $x237))))))
(or $x255)))))))))
(check-sat)
