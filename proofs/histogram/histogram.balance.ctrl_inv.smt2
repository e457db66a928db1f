; loom verify obligation balance.%ctrl_inv of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun memref.dim_%data__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun N_L0 () Int)
(assert
 (let ((?x2731 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
(let (($x2725 (bvslt (_ bv0 64) ?x2731)))
(let (($x2723 (and $x2725)))
(let (($x2530 (>= N_L0 1)))
(let (($x2737 (and $x2530 $x2725)))
(let (($x2865 (xor $x2737 $x2723)))
(let (($x2747 (= $x2530 $x2725)))
(let (($x2663 (>= N_L0 0)))
(let (($x2759 (and $x2663 $x2747 $x2865)))
(or $x2759)))))))))))
(check-sat)
