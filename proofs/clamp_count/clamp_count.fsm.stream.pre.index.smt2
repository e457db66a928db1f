; loom verify obligation fsm.stream.pre.%index of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.13 () (_ BitVec 64))
(declare-fun opaque.10 () (_ BitVec 64))
(declare-fun opaque.7 () (_ BitVec 64))
(declare-fun opaque.14 () (_ BitVec 64))
(assert
 (let (($t1 (and true true)))
 (let (($t2 (and true $t1 (= (_ bv1 1) (ite (bvsle opaque.13 (_ bv0 64)) (_ bv0 1) (_ bv1 1))))))
 (let (($t3 (and true $t1 (= (_ bv1 1) (ite (bvsle opaque.10 (_ bv0 64)) (_ bv0 1) (_ bv1 1))))))
 (let (($t4 (and true $t1 (= (_ bv1 1) (ite (bvsle opaque.7 (_ bv0 64)) (_ bv0 1) (_ bv1 1))))))
 (and $t4 $t3 $t2))))))
(assert
 (let (($t5 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle opaque.14 (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($t6 (or (bvsge (_ bv0 64) opaque.14) $t5)))
(not $t6))))
(check-sat)
