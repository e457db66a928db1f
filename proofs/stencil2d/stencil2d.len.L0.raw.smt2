; loom verify obligation len.L0.raw of @stencil2d
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun |memref.dim(%in)#0->index:BitVec(64)| ((_ BitVec 64)) (_ BitVec 64))
(define-fun _t1 () Bool (and (bvslt (_ bv1 64) (bvsub (|memref.dim(%in)#0->index:BitVec(64)| (_ bv0 64)) (_ bv1 64)))))
(assert (or (and (xor _t1 _t1))))
(check-sat)
