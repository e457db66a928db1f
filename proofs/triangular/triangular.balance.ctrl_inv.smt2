; loom verify obligation balance.%ctrl_inv of @triangular
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%y__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let ((?x5713 (memref.dim_%y__0->index_BitVec_64_ (_ bv0 64))))
(let (($x5714 (bvslt (_ bv0 64) ?x5713)))
(let (($x5674 (and $x5714)))
(let (($x5673 (>= N_L0 1)))
(let (($x5735 (and $x5673 $x5714)))
(let (($x5779 (xor $x5735 $x5674)))
(let (($x5656 (= $x5673 $x5714)))
(let (($x5819 (>= N_L0 0)))
(let (($x5666 (and $x5819 $x5656 $x5779)))
(or $x5666)))))))))))
(check-sat)
