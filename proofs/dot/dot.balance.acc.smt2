; loom verify obligation balance.%acc of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (let (($x2520 (bvslt (_ bv0 64) arg_n)))
(let (($x2544 (not $x2520)))
(let (($x2511 (and $x2544)))
(let (($x2477 (xor $x2511 $x2511)))
(let (($x2540 (and $x2477)))
(let (($x2600 (and $x2520)))
(let (($x2589 (xor $x2600 $x2600)))
(let (($x2541 (and $x2589)))
(or $x2541 $x2540))))))))))
(check-sat)
