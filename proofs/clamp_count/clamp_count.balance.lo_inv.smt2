; loom verify obligation balance.%lo_inv of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let ((?x134 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x218 (bvslt (_ bv0 64) ?x134)))
(let (($x199 (and $x218)))
(let (($x131 (>= N_L0 1)))
(let (($x494 (and $x131 $x218)))
(let (($x255 (xor $x494 $x199)))
(let (($x148 (= $x131 $x218)))
(let (($x121 (>= N_L0 0)))
(let (($x619 (and $x121 $x148 $x255)))
(or $x619)))))))))))
(check-sat)
