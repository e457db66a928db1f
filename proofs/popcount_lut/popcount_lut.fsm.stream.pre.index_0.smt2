; loom verify obligation fsm.stream.pre.%index_0 of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.23 () (_ BitVec 64))
(declare-fun opaque.20 () (_ BitVec 64))
(declare-fun opaque.17 () (_ BitVec 64))
(assert
 (let (($x4325 (and true true)))
 (let (($x4464 (and true $x4325 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.23) (_ bv1 1) (_ bv0 1))))))
 (let (($x4294 (and true $x4325 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.20) (_ bv1 1) (_ bv0 1))))))
 (let (($x4193 (and true $x4325 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.17) (_ bv1 1) (_ bv0 1))))))
 (and $x4193 $x4294 $x4464))))))
(assert
 (let (($x4194 (or (bvsge (_ bv0 64) (_ bv8 64)) (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle (_ bv8 64) (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64)))))))
(not $x4194)))
(check-sat)
