; loom verify obligation fsm.stream.pre.%index of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg.n () (_ BitVec 64))
(assert
 (let (($x4268 (and true true)))
 (let (($x4087 (and true $x4268 (= (_ bv1 1) (ite (bvslt (_ bv0 64) arg.n) (_ bv1 1) (_ bv0 1))))))
 (and $x4087 $x4087 $x4087))))
(assert
 (let (($x4111 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle arg.n (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x4271 (or (bvsge (_ bv0 64) arg.n) $x4111)))
(not $x4271))))
(check-sat)
