; loom verify obligation balance.%y_done of @triangular
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun N_L0 () Int)
(declare-fun |memref.dim(%y)#0->index:BitVec(64)| ((_ BitVec 64)) (_ BitVec 64))
(define-fun _t1 () Bool (bvslt (_ bv0 64) (|memref.dim(%y)#0->index:BitVec(64)| (_ bv0 64))))
(define-fun _t2 () Bool (>= N_L0 1))
(assert (or (and (>= N_L0 0) (xor (and _t1) (and _t1 _t2)) (= _t1 _t2))))
(check-sat)
