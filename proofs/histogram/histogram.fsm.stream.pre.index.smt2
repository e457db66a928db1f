; loom verify obligation fsm.stream.pre.%index of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.13 () (_ BitVec 64))
(declare-fun opaque.10 () (_ BitVec 64))
(declare-fun opaque.7 () (_ BitVec 64))
(declare-fun opaque.14 () (_ BitVec 64))
(assert
 (let (($x2709 (and true true)))
 (let (($x2763 (and true $x2709 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.13) (_ bv1 1) (_ bv0 1))))))
 (let (($x2666 (and true $x2709 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.10) (_ bv1 1) (_ bv0 1))))))
 (let (($x2766 (and true $x2709 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.7) (_ bv1 1) (_ bv0 1))))))
 (and $x2766 $x2666 $x2763))))))
(assert
 (let (($x2415 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle opaque.14 (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x2720 (or (bvsge (_ bv0 64) opaque.14) $x2415)))
(not $x2720))))
(check-sat)
