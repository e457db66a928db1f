; loom verify obligation balance.%ctrl_inv of @tile_scale
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun N_L0 () Int)
(define-fun _t1 () Bool (>= N_L0 1))
(assert (or (and (>= N_L0 0) (= N_L0 2) (xor (and _t1) true) (= _t1 (bvslt (_ bv0 64) (_ bv2 64))))))
(check-sat)
