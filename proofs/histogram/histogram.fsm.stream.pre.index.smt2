; loom verify obligation fsm.stream.pre.%index of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.13 () (_ BitVec 64))
(declare-fun opaque.10 () (_ BitVec 64))
(declare-fun opaque.7 () (_ BitVec 64))
(declare-fun opaque.14 () (_ BitVec 64))
(assert
 (let (($x3076 (and true true)))
 (let (($x3364 (and true $x3076 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.13) (_ bv1 1) (_ bv0 1))))))
 (let (($x2966 (and true $x3076 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.10) (_ bv1 1) (_ bv0 1))))))
 (let (($x2923 (and true $x3076 (= (_ bv1 1) (ite (bvslt (_ bv0 64) opaque.7) (_ bv1 1) (_ bv0 1))))))
 (and $x2923 $x2966 $x3364))))))
(assert
 (let (($x3171 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle opaque.14 (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($x2822 (or (bvsge (_ bv0 64) opaque.14) $x3171)))
(not $x2822))))
(check-sat)
