; loom verify obligation balance.%y_done of @saxpy
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun N_L0 () Int)
(declare-fun |arg:n| () (_ BitVec 64))
(define-fun _t1 () Bool (>= N_L0 1))
(define-fun _t2 () Bool (bvslt (_ bv0 64) |arg:n|))
(assert (or (and (xor (and _t1 _t2) (and _t2)) (>= N_L0 0) (= _t1 _t2))))
(check-sat)
