; loom verify obligation refine.loop@14:5.activation of @popcount_lut
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun |memref.dim(arg:v)->index:BitVec(64)| ((_ BitVec 64)) (_ BitVec 64))
(define-fun _t1 () Bool (bvslt (_ bv0 64) (|memref.dim(arg:v)->index:BitVec(64)| (_ bv0 64))))
(define-fun _t2 () Bool (and _t1 true))
(assert (not (and (=> (and _t2 _t1) true) (=> _t2 _t2))))
(check-sat)
