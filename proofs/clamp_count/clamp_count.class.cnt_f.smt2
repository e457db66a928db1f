; loom verify obligation class.%cnt_f of @clamp_count
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun |memref.dim(%v)#0->index:BitVec(64)| ((_ BitVec 64)) (_ BitVec 64))
(define-fun _t1 () Bool (and (bvslt (_ bv0 64) (|memref.dim(%v)#0->index:BitVec(64)| (_ bv0 64)))))
(assert (xor _t1 _t1))
(check-sat)
