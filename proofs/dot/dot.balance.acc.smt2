; loom verify obligation balance.%acc of @dot
; verdict: proved (unsat means proved)
(set-logic ALL)
(declare-fun |arg:n| () (_ BitVec 64))
(define-fun _t1 () Bool (bvslt (_ bv0 64) |arg:n|))
(define-fun _t2 () Bool (and _t1))
(define-fun _t3 () Bool (and (not _t1)))
(assert (or (and (xor _t2 _t2)) (and (xor _t3 _t3))))
(check-sat)
