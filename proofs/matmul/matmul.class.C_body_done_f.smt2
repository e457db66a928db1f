; loom verify obligation class.%C_body_done_f of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L1 (Int) Int)
(declare-fun j_L0 () Int)
(declare-fun memref.dim_%B__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%A__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun index_1 (Int) (_ BitVec 64))
(assert
 (let ((?x3887 (N_L1 j_L0)))
 (>= ?x3887 0)))
(assert
 (let ((?x4037 (memref.dim_%B__0->index_BitVec_64_ (_ bv1 64))))
 (let (($x3884 (bvslt (_ bv0 64) ?x4037)))
 (let ((?x3887 (N_L1 j_L0)))
 (let (($x2776 (>= ?x3887 1)))
 (= $x2776 $x3884))))))
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
 (let (($x4042 (< j_L0 N_L0)))
(let ((?x4035 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4038 (bvslt (_ bv0 64) ?x4035)))
(let ((?x4037 (memref.dim_%B__0->index_BitVec_64_ (_ bv1 64))))
(let (($x3884 (bvslt (_ bv0 64) ?x4037)))
(let ((?x3887 (N_L1 j_L0)))
(let (($x2776 (>= ?x3887 1)))
(let (($x4178 (and $x2776 $x3884 $x4038 $x4042)))
(xor $x4178 $x4178))))))))))
(check-sat)
