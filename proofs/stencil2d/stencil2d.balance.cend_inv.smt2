; loom verify obligation balance.%cend_inv of @stencil2d
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%in__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let ((?t1 (memref.dim_%in__0->index_BitVec_64_ (_ bv0 64))))
(let ((?t2 (bvsub ?t1 (_ bv1 64))))
(let (($t3 (bvslt (_ bv1 64) ?t2)))
(let (($t4 (and $t3)))
(let (($t5 (>= N_L0 1)))
(let (($t6 (and $t5 $t3)))
(let (($t7 (xor $t6 $t4)))
(let (($t8 (= $t5 $t3)))
(let (($t9 (>= N_L0 0)))
(let (($t10 (and $t9 $t8 $t7)))
(or $t10))))))))))))
(check-sat)
