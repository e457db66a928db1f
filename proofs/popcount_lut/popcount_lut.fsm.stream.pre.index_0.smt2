; loom verify obligation fsm.stream.pre.%index_0 of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.23 () (_ BitVec 64))
(declare-fun opaque.20 () (_ BitVec 64))
(declare-fun opaque.17 () (_ BitVec 64))
(assert
 (let (($x4133 (and true true)))
 (let (($x4191 (and true $x4133 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.23) (_ bv1 1) (_ bv0 1))))))
 (let (($x4120 (and true $x4133 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.20) (_ bv1 1) (_ bv0 1))))))
 (let (($x4070 (and true $x4133 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.17) (_ bv1 1) (_ bv0 1))))))
 (and $x4070 $x4120 $x4191))))))
(assert
 (let (($x4100 (or (bvsge (_ bv0 64) (_ bv8 64)) (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle (_ bv8 64) (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64)))))))
(not $x4100)))
(check-sat)
