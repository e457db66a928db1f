; loom verify obligation fsm.stream.pre.%index of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.13 () (_ BitVec 64))
(declare-fun opaque.10 () (_ BitVec 64))
(declare-fun opaque.7 () (_ BitVec 64))
(declare-fun opaque.14 () (_ BitVec 64))
(assert
 (let (($x276 (and true true)))
 (let (($x429 (and true $x276 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.13) (_ bv1 1) (_ bv0 1))))))
 (let (($x234 (and true $x276 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.10) (_ bv1 1) (_ bv0 1))))))
 (let (($x311 (and true $x276 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.7) (_ bv1 1) (_ bv0 1))))))
 (and $x311 $x234 $x429))))))
(assert
 (let (($x53 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle opaque.14 (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x139 (or (bvsge (_ bv0 64) opaque.14) $x53)))
(not $x139))))
(check-sat)
