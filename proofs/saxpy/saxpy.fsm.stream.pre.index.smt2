; loom verify obligation fsm.stream.pre.%index of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg.n () (_ BitVec 64))
(assert
 (let (($t1 (and true true)))
 (let (($t2 (and true $t1 (= (_ bv1 1) (ite (bvsle arg.n (_ bv0 64)) (_ bv0 1) (_ bv1 1))))))
 (and $t2 $t2 $t2))))
(assert
 (let (($t3 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle arg.n (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($t4 (or (bvsge (_ bv0 64) arg.n) $t3)))
(not $t4))))
(check-sat)
