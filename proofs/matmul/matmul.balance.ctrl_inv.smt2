; loom verify obligation balance.%ctrl_inv of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%A__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let ((?x4035 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
(let (($x4038 (bvslt (_ bv0 64) ?x4035)))
(let (($x4174 (and $x4038)))
(let (($x4091 (>= N_L0 1)))
(let (($x4117 (and $x4038 $x4091)))
(let (($x4175 (xor $x4117 $x4174)))
(let (($x4177 (= $x4091 $x4038)))
(let (($x4176 (>= N_L0 0)))
(let (($x2986 (and $x4176 $x4177 $x4175)))
(or $x2986)))))))))))
(check-sat)
