; loom verify obligation class.%B_body_done_t_1 of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%A__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun j_L0 () Int)
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x4035 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x4038 (bvslt (_ bv0 64) ?x4035)))
 (let (($x4091 (>= N_L0 1)))
 (= $x4091 $x4038)))))
(assert
 (>= j_L0 0))
(assert
 (<= j_L0 N_L0))
(assert
 (let ((?x4084 (index_1 j_L0)))
 (let (($x4099 (= (_ bv0 64) ?x4084)))
 (let (($x4098 (= j_L0 0)))
 (=> $x4098 $x4099)))))
(assert
 (let ((?x4084 (index_1 j_L0)))
 (let (($x4093 (bvsle (_ bv0 64) ?x4084)))
 (let (($x4092 (<= j_L0 N_L0)))
 (=> $x4092 $x4093)))))
(assert
 (let ((?x4035 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x4084 (index_1 j_L0)))
 (let (($x4097 (bvslt ?x4084 ?x4035)))
 (let (($x4042 (< j_L0 N_L0)))
 (=> $x4042 $x4097))))))
(assert
 (let ((?x4035 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
 (let ((?x4084 (index_1 j_L0)))
 (let (($x4097 (bvslt ?x4084 ?x4035)))
 (let (($x2725 (not $x4097)))
 (let (($x3889 (= j_L0 N_L0)))
 (=> $x3889 $x2725)))))))
(assert
 (let ((?x4080 (- N_L0 1)))
(let (($x4081 (< j_L0 ?x4080)))
(let (($x4042 (< j_L0 N_L0)))
(let ((?x4035 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4038 (bvslt (_ bv0 64) ?x4035)))
(let (($x2851 (and $x4038 $x4042 $x4081)))
(xor $x2851 $x2851))))))))
(check-sat)
