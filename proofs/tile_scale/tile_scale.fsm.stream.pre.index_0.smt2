; loom verify obligation fsm.stream.pre.%index_0 of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(assert
 (and true true true))
(assert
 (let (($t1 (or (bvsge (_ bv0 64) (_ bv3 64)) (and (bvsgt (_ bv1 64) (_ bv0 64)) (bvsle (_ bv3 64) (bvadd (bvsub (_ bv9223372036854775807 64) (_ bv1 64)) (_ bv1 64)))))))
(not $t1)))
(check-sat)
