; loom verify obligation class.%L_body_done_f_0 of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%y__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x5714 (bvslt (_ bv0 64) ?x5713)))
 (let (($x5673 (>= N_L0 1)))
 (= $x5673 $x5714)))))
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
(let (($x5714 (bvslt (_ bv0 64) ?x5713)))
(let (($x5673 (>= N_L0 1)))
(let (($x5735 (and $x5673 $x5714)))
(xor $x5735 $x5735))))))
(check-sat)
