; loom verify obligation class.%v_body_done_f of @clamp_count
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%v__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x134 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x218 (bvslt (_ bv0 64) ?x134)))
 (let (($x131 (>= N_L0 1)))
 (= $x131 $x218)))))
(assert
 (let ((?x134 (memref.dim_%v__0->index_BitVec_64_ (_ bv0 64))))
(let (($x218 (bvslt (_ bv0 64) ?x134)))
(let (($x131 (>= N_L0 1)))
(let (($x494 (and $x131 $x218)))
(xor $x494 $x494))))))
(check-sat)
