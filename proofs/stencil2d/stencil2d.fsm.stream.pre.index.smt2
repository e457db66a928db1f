; loom verify obligation fsm.stream.pre.%index of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.13 () (_ BitVec 64))
(declare-fun opaque.10 () (_ BitVec 64))
(declare-fun opaque.9 () (_ BitVec 64))
(declare-fun opaque.14 () (_ BitVec 64))
(assert
 (let (($x5004 (and true true)))
 (let (($x4695 (and true $x5004)))
 (let (($x4743 (and $x5004 $x4695 (= (_ bv1 1) (ite (bvslt (_ bv1 64) (bvsub opaque.13 (_ bv1 64))) (_ bv1 1) (_ bv0 1))))))
 (let (($x4322 (and true $x4695 (= (_ bv1 1) (ite (bvslt (_ bv1 64) (bvsub opaque.10 (_ bv1 64))) (_ bv1 1) (_ bv0 1))))))
 (let (($x4225 (and true $x4695 (= (_ bv1 1) (ite (bvslt (_ bv1 64) (bvsub opaque.9 (_ bv1 64))) (_ bv1 1) (_ bv0 1))))))
 (and $x4225 $x4322 $x4743)))))))
(assert
 (let (($x4745 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle (bvsub opaque.14 (_ bv1 64)) (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x4256 (or (bvsge (_ bv1 64) (bvsub opaque.14 (_ bv1 64))) $x4745)))
(not $x4256))))
(check-sat)
