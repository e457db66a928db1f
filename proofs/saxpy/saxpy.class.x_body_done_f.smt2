; loom verify obligation class.%x_body_done_f of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
 (let (($t2 (>= N_L0 1)))
 (= $t2 $t1))))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
(let (($t2 (>= N_L0 1)))
(let (($t3 (and $t2 $t1)))
(xor $t3 $t3)))))
(check-sat)
