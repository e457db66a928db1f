; loom verify obligation fsm.stream.pre.%index of @saxpy
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun arg.n () (_ BitVec 64))
(define-fun _t1 () Bool (and (= (ite (bvsle arg.n (_ bv0 64)) (_ bv0 1) (_ bv1 1)) (_ bv1 1)) (and true true) true))
(assert (not (or (bvsge (_ bv0 64) arg.n) (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle arg.n (bvadd (_ bv1 64) (bvsub (_ bv9223372036854775807 64) (_ bv1 64))))))))
(assert (and _t1 _t1 _t1))
(assert true)
(check-sat)
