; loom verify obligation len.L0.raw of @histogram
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun |memref.dim(%data)#0->index:BitVec(64)| ((_ BitVec 64)) (_ BitVec 64))
(define-fun _t1 () Bool (and (bvslt (_ bv0 64) (|memref.dim(%data)#0->index:BitVec(64)| (_ bv0 64)))))
(define-fun _t2 () Bool (and (xor _t1 _t1)))
(assert (or _t2 _t2))
(check-sat)
