; loom verify obligation class.%m_body_done_f of @tile_scale
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun index_4 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (= N_L0 2))
(assert
 (let (($x5599 (bvslt (_ bv0 64) (_ bv2 64))))
 (let (($x5513 (>= N_L0 1)))
 (= $x5513 $x5599))))
(assert
 (let ((?x5137 (N_L1 j_L0)))
 (>= ?x5137 0)))
(assert
 (let ((?x5137 (N_L1 j_L0)))
 (= ?x5137 3)))
(assert
 (let (($x5548 (bvslt (_ bv0 64) (_ bv3 64))))
 (let ((?x5137 (N_L1 j_L0)))
 (let (($x5490 (>= ?x5137 1)))
 (= $x5490 $x5548)))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x5457 (index_4 j_L0)))
 (let (($x5553 (= (_ bv0 64) ?x5457)))
 (let (($x5444 (= j_L0 0)))
 (=> $x5444 $x5553)))))
(assert
 (let ((?x5457 (index_4 j_L0)))
 (let (($x5465 (bvsle (_ bv0 64) ?x5457)))
 (let (($x5600 (<= j_L0 N_L0)))
 (=> $x5600 $x5465)))))
(assert
 (let ((?x5457 (index_4 j_L0)))
 (let (($x5504 (bvsgt (_ bv2 64) ?x5457)))
 (let (($x5455 (< j_L0 N_L0)))
 (=> $x5455 $x5504)))))
(assert
 (let ((?x5457 (index_4 j_L0)))
 (let (($x5504 (bvsgt (_ bv2 64) ?x5457)))
 (let (($x5511 (not $x5504)))
 (let (($x5551 (= j_L0 N_L0)))
 (=> $x5551 $x5511))))))
(assert
 (let ((?x5137 (N_L1 j_L0)))
(let (($x5490 (>= ?x5137 1)))
(let (($x5455 (< j_L0 N_L0)))
(let (($x5724 (and $x5455 $x5490)))
(xor $x5724 $x5724))))))
(check-sat)
