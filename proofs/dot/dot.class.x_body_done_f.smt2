; loom verify obligation class.%x_body_done_f of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let (($x2520 (bvslt (_ bv0 64) arg_n)))
 (let (($x2530 (>= N_L0 1)))
 (= $x2530 $x2520))))
(assert
 (let (($x2530 (>= N_L0 1)))
(let (($x2520 (bvslt (_ bv0 64) arg_n)))
(let (($x2643 (and $x2520 $x2530)))
(xor $x2643 $x2643)))))
(check-sat)
