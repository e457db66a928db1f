; loom verify obligation class.%index of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun arg_n () (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_3 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let (($x4444 (bvslt (_ bv0 64) arg_n)))
 (let (($x4372 (>= N_L0 1)))
 (= $x4372 $x4444))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x4244 (index_3 j_L0)))
 (let (($x4442 (= (_ bv0 64) ?x4244)))
 (let (($x4485 (= j_L0 0)))
 (=> $x4485 $x4442)))))
(assert
 (let ((?x4244 (index_3 j_L0)))
 (let (($x4305 (bvsle (_ bv0 64) ?x4244)))
 (let (($x4191 (<= j_L0 N_L0)))
 (=> $x4191 $x4305)))))
(assert
 (let ((?x4244 (index_3 j_L0)))
 (let (($x4340 (bvslt ?x4244 arg_n)))
 (let (($x4270 (< j_L0 N_L0)))
 (=> $x4270 $x4340)))))
(assert
 (let ((?x4244 (index_3 j_L0)))
 (let (($x4340 (bvslt ?x4244 arg_n)))
 (let (($x4192 (not $x4340)))
 (let (($x4421 (= j_L0 N_L0)))
 (=> $x4421 $x4192))))))
(assert
 (let (($x4444 (bvslt (_ bv0 64) arg_n)))
(let (($x4321 (and $x4444)))
(xor $x4321 $x4321))))
(check-sat)
