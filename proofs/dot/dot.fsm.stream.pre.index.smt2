; loom verify obligation fsm.stream.pre.%index of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg.n () (_ BitVec 64))
(assert
 (let (($x3555 (and true true)))
 (let (($x2545 (and true $x3555 (= (_ bv1 1) (ite (bvslt (_ bv0 64) arg.n) (_ bv1 1) (_ bv0 1))))))
 (and $x2545 $x2545 $x2545))))
(assert
 (let (($x2519 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle arg.n (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x2490 (or (bvsge (_ bv0 64) arg.n) $x2519)))
(not $x2490))))
(check-sat)
