; loom verify obligation fsm.stream.pre.%index of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun opaque.13 () (_ BitVec 64))
(declare-fun opaque.10 () (_ BitVec 64))
(declare-fun opaque.9 () (_ BitVec 64))
(declare-fun opaque.14 () (_ BitVec 64))
(assert
 (let (($t1 (and true true)))
 (let (($t2 (and true $t1)))
 (let (($t3 (and $t1 $t2 (= (_ bv1 1) (ite (bvsle (bvadd (_ bv18446744073709551615 64) opaque.13) (_ bv1 64)) (_ bv0 1) (_ bv1 1))))))
 (let (($t4 (and true $t2 (= (_ bv1 1) (ite (bvsle (bvadd (_ bv18446744073709551615 64) opaque.10) (_ bv1 64)) (_ bv0 1) (_ bv1 1))))))
 (let (($t5 (and true $t2 (= (_ bv1 1) (ite (bvsle (bvadd (_ bv18446744073709551615 64) opaque.9) (_ bv1 64)) (_ bv0 1) (_ bv1 1))))))
 (and $t5 $t4 $t3)))))))
(assert
 (let (($t6 (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle (bvadd (_ bv18446744073709551615 64) opaque.14) (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64))))))
(let (($t7 (or (bvsge (_ bv1 64) (bvadd (_ bv18446744073709551615 64) opaque.14)) $t6)))
(not $t7))))
(check-sat)
