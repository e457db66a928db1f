; loom verify obligation fsm.stream.pre.%index of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.13 () (_ BitVec 64))
(declare-fun opaque.10 () (_ BitVec 64))
(declare-fun opaque.9 () (_ BitVec 64))
(declare-fun opaque.14 () (_ BitVec 64))
(assert
 (let (($x4450 (and true true)))
 (let (($x4245 (and true $x4450)))
 (let (($x4128 (and $x4450 $x4245 (= (_ bv1 1) (ite (bvslt (_ bv1 64) (bvsub opaque.13 (_ bv1 64))) (_ bv1 1) (_ bv0 1))))))
 (let (($x4090 (and true $x4245 (= (_ bv1 1) (ite (bvslt (_ bv1 64) (bvsub opaque.10 (_ bv1 64))) (_ bv1 1) (_ bv0 1))))))
 (let (($x4104 (and true $x4245 (= (_ bv1 1) (ite (bvslt (_ bv1 64) (bvsub opaque.9 (_ bv1 64))) (_ bv1 1) (_ bv0 1))))))
 (and $x4104 $x4090 $x4128)))))))
(assert
 (let (($x4164 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle (bvsub opaque.14 (_ bv1 64)) (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x4239 (or (bvsge (_ bv1 64) (bvsub opaque.14 (_ bv1 64))) $x4164)))
(not $x4239))))
(check-sat)
