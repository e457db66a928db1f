; loom verify obligation class.%afterCond of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_3 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x134 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x218 (bvslt (_ bv0 64) ?x134)))
 (let (($x131 (>= N_L0 1)))
 (= $x131 $x218)))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x145 (index_3 j_L0)))
 (let (($x44 (= (_ bv0 64) ?x145)))
 (let (($x129 (= j_L0 0)))
 (=> $x129 $x44)))))
(assert
 (let ((?x145 (index_3 j_L0)))
 (let (($x86 (bvsle (_ bv0 64) ?x145)))
 (let (($x120 (<= j_L0 N_L0)))
 (=> $x120 $x86)))))
(assert
 (let ((?x134 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x145 (index_3 j_L0)))
 (let (($x99 (bvslt ?x145 ?x134)))
 (let (($x233 (< j_L0 N_L0)))
 (=> $x233 $x99))))))
(assert
 (let ((?x134 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x145 (index_3 j_L0)))
 (let (($x99 (bvslt ?x145 ?x134)))
 (let (($x53 (not $x99)))
 (let (($x36 (= j_L0 N_L0)))
 (=> $x36 $x53)))))))
(assert
 (let (($x233 (< j_L0 N_L0)))
(let ((?x134 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x218 (bvslt (_ bv0 64) ?x134)))
(let (($x77 (and $x218 $x233)))
(xor $x77 $x77))))))
(check-sat)
