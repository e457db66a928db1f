; loom verify obligation class.%acc_f of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (let (($x2520 (bvslt (_ bv0 64) arg_n)))
(let (($x2600 (and $x2520)))
(xor $x2600 $x2600))))
(check-sat)
