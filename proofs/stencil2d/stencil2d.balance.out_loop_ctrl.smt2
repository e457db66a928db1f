; loom verify obligation balance.%out_loop_ctrl of @stencil2d
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun N_L0 () Int)
(declare-fun |memref.dim(%in)#0->index:BitVec(64)| ((_ BitVec 64)) (_ BitVec 64))
(define-fun _t1 () Bool (bvslt (_ bv1 64) (bvsub (|memref.dim(%in)#0->index:BitVec(64)| (_ bv0 64)) (_ bv1 64))))
(define-fun _t2 () Bool (>= N_L0 1))
(assert (or (and (>= N_L0 0) (xor (and _t1 _t2) (and _t1)) (= _t1 _t2))))
(check-sat)
