; loom verify obligation fsm.stream.pre.%index_0 of @popcount_lut
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.23 () (_ BitVec 64))
(declare-fun opaque.20 () (_ BitVec 64))
(declare-fun opaque.17 () (_ BitVec 64))
(assert
 (let (($t1 (and true true)))
 (let (($t2 (and true $t1 (= (_ bv1 1) (ite (bvsle opaque.23 (_ bv0 64)) (_ bv0 1) (_ bv1 1))))))
 (let (($t3 (and true $t1 (= (_ bv1 1) (ite (bvsle opaque.20 (_ bv0 64)) (_ bv0 1) (_ bv1 1))))))
 (let (($t4 (and true $t1 (= (_ bv1 1) (ite (bvsle opaque.17 (_ bv0 64)) (_ bv0 1) (_ bv1 1))))))
 (and $t4 $t3 $t2))))))
(assert
 (let (($t5 (or (bvsge (_ bv0 64) (_ bv8 64)) (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle (_ bv8 64) (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64)))))))
(not $t5)))
(check-sat)
