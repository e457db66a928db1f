; loom verify obligation class.%data_body_done_f of @histogram
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun N_L0 () Int)
(declare-fun memref.dim_%data__0->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (>= N_L0 0))
(assert
 (let ((?x2731 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
 (let (($x2725 (bvslt (_ bv0 64) ?x2731)))
 (let (($x2530 (>= N_L0 1)))
 (= $x2530 $x2725)))))
(assert
 (let ((?x2731 (memref.dim_%data__0->index_BitVec_64_ (_ bv0 64))))
(let (($x2725 (bvslt (_ bv0 64) ?x2731)))
(let (($x2530 (>= N_L0 1)))
(let (($x2737 (and $x2530 $x2725)))
(xor $x2737 $x2737))))))
(check-sat)
