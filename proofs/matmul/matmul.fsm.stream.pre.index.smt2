; loom verify obligation fsm.stream.pre.%index of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.13 () (_ BitVec 64))
(declare-fun opaque.10 () (_ BitVec 64))
(declare-fun opaque.7 () (_ BitVec 64))
(declare-fun opaque.14 () (_ BitVec 64))
(assert
 (let (($x2962 (and true true)))
 (let (($x2363 (and true $x2962 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.13) (_ bv1 1) (_ bv0 1))))))
 (let (($x2820 (and true $x2962 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.10) (_ bv1 1) (_ bv0 1))))))
 (let (($x3366 (and true $x2962 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.7) (_ bv1 1) (_ bv0 1))))))
 (and $x3366 $x2820 $x2363))))))
(assert
 (let (($x3376 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle opaque.14 (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x2946 (or (bvsge (_ bv0 64) opaque.14) $x3376)))
(not $x2946))))
(check-sat)
