; loom verify obligation fsm.stream.pre.%index of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg.n () (_ BitVec 64))
(assert
 (let (($x4511 (and true true)))
 (let (($x4421 (and true $x4511 (= (_ bv1 1) (ite (bvslt (_ bv0 64) arg.n) (_ bv1 1) (_ bv0 1))))))
 (and $x4421 $x4421 $x4421))))
(assert
 (let (($x4380 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle arg.n (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x4388 (or (bvsge (_ bv0 64) arg.n) $x4380)))
(not $x4388))))
(check-sat)
