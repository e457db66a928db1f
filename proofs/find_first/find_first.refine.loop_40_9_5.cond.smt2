; loom verify obligation refine.loop@9:5.cond of @find_first
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun scf_arg0@9_5 () (_ BitVec 64))
(declare-fun arg_key () (_ BitVec 32))
(declare-fun load@12_9_0 () (_ BitVec 32))
(declare-fun memref.dim_arg_a_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun dfg_%carry_i () (_ BitVec 64))
(assert
 (= scf_arg0@9_5 scf_arg0@9_5))
(assert
 (let (($t1 (and (distinct load@12_9_0 arg_key) true)))
 (let (($t2 (ite (not (bvult scf_arg0@9_5 (memref.dim_arg_a_->index_BitVec_64_ (_ bv0 64)))) false $t1)))
 (let ((?t3 (memref.dim_arg_a_->index_BitVec_64_ (_ bv0 64))))
 (let (($t4 (bvult scf_arg0@9_5 ?t3)))
 (let (($t5 (ite $t4 $t1 false)))
 (not (= $t5 $t2))))))))
(assert
 (= dfg_%carry_i scf_arg0@9_5))
(check-sat)
