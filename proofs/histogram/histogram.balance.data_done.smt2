; loom verify obligation balance.%data_done of @histogram
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun N_L0 () Int)
(declare-fun |memref.dim(%data)#0->index:BitVec(64)| ((_ BitVec 64)) (_ BitVec 64))
(define-fun _t1 () Bool (bvslt (_ bv0 64) (|memref.dim(%data)#0->index:BitVec(64)| (_ bv0 64))))
(define-fun _t2 () Bool (>= N_L0 1))
(assert (or (and (xor (and _t1 _t2) (and _t1)) (>= N_L0 0) (= _t1 _t2))))
(check-sat)
