; loom verify obligation class.%x_body_done_f of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let (($x4444 (bvslt (_ bv0 64) arg_n)))
 (let (($x4372 (>= N_L0 1)))
 (= $x4372 $x4444))))
(assert
 (let (($x4444 (bvslt (_ bv0 64) arg_n)))
(let (($x4372 (>= N_L0 1)))
(let (($x4278 (and $x4372 $x4444)))
(xor $x4278 $x4278)))))
(check-sat)
