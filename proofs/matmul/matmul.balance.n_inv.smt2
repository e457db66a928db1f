; loom verify obligation balance.%n_inv of @matmul
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%A__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let ((?t1 (memref.dim_%A__0->index_BitVec_64_ (_ bv0 64))))
(let (($t2 (bvslt (_ bv0 64) ?t1)))
(let (($t3 (and $t2)))
(let (($t4 (>= N_L0 1)))
(let (($t5 (and $t2 $t4)))
(let (($t6 (xor $t5 $t3)))
(let (($t7 (= $t4 $t2)))
(let (($t8 (>= N_L0 0)))
(let (($t9 (and $t8 $t7 $t6)))
(or $t9)))))))))))
(check-sat)
