; loom verify obligation class.%A_body_done_f_1 of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%A__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x4035 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x4038 (bvslt (_ bv0 64) ?x4035)))
 (let (($x4091 (>= N_L0 1)))
 (= $x4091 $x4038)))))
(assert
 (let (($x4091 (>= N_L0 1)))
(let ((?x4035 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4038 (bvslt (_ bv0 64) ?x4035)))
(let (($x4117 (and $x4038 $x4091)))
(xor $x4117 $x4117))))))
(check-sat)
