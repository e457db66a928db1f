; loom verify obligation fsm.stream.pre.%index of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.13 () (_ BitVec 64))
(declare-fun opaque.10 () (_ BitVec 64))
(declare-fun opaque.7 () (_ BitVec 64))
(declare-fun opaque.14 () (_ BitVec 64))
(assert
 (let (($x5344 (and true true)))
 (let (($x5359 (and true $x5344 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.13) (_ bv1 1) (_ bv0 1))))))
 (let (($x5308 (and true $x5344 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.10) (_ bv1 1) (_ bv0 1))))))
 (let (($x5311 (and true $x5344 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.7) (_ bv1 1) (_ bv0 1))))))
 (and $x5311 $x5308 $x5359))))))
(assert
 (let (($x5553 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle opaque.14 (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x5323 (or (bvsge (_ bv0 64) opaque.14) $x5553)))
(not $x5323))))
(check-sat)
