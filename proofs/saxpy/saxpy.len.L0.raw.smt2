; loom verify obligation len.L0.raw of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(assert
 (let (($x4444 (bvslt (_ bv0 64) arg_n)))
(let (($x4321 (and $x4444)))
(let (($x4488 (xor $x4321 $x4321)))
(let (($x4246 (and $x4488)))
(or $x4246 $x4246))))))
(check-sat)
