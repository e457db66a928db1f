; loom verify obligation balance.%a_inv of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let (($x4444 (bvslt (_ bv0 64) arg_n)))
(let (($x4321 (and $x4444)))
(let (($x4372 (>= N_L0 1)))
(let (($x4278 (and $x4372 $x4444)))
(let (($x4336 (xor $x4278 $x4321)))
(let (($x4208 (= $x4372 $x4444)))
(let (($x4520 (>= N_L0 0)))
(let (($x4362 (and $x4520 $x4208 $x4336)))
(or $x4362))))))))))
(check-sat)
