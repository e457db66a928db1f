; loom verify obligation balance.%v_done_0 of @clamp_count
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun N_L0 () Int)
(declare-fun |memref.dim(%v)#0->index:BitVec(64)| ((_ BitVec 64)) (_ BitVec 64))
(define-fun _t1 () Bool (>= N_L0 1))
(define-fun _t2 () Bool (bvslt (_ bv0 64) (|memref.dim(%v)#0->index:BitVec(64)| (_ bv0 64))))
(assert (or (and (xor (and _t1 _t2) (and _t2)) (>= N_L0 0) (= _t1 _t2))))
(check-sat)
