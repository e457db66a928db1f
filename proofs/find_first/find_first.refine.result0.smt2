; loom verify obligation refine.result0 of @find_first
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun dfg_exit_%carry_i () (_ BitVec 64))
(declare-fun scf_exit_arg0@9_5 () (_ BitVec 64))
(declare-fun arg_key () (_ BitVec 32))
(declare-fun load@12_9_0 () (_ BitVec 32))
(declare-fun memref.dim_arg_a_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(assert
 (let (($t1 (= scf_exit_arg0@9_5 dfg_exit_%carry_i)))
 (let (($t2 (=> true $t1)))
 (let (($t3 (= true true)))
 (let (($t4 (and $t3 $t2)))
 (not $t4))))))
(assert
 (=> (and true true) (and (= dfg_exit_%carry_i scf_exit_arg0@9_5))))
(assert
 (let (($t5 (and (distinct load@12_9_0 arg_key) true)))
 (let (($t6 (ite (not (bvult (_ bv0 64) (memref.dim_arg_a_->index_BitVec_64_ (_ bv0 64)))) false $t5)))
 (let (($t7 (and true)))
 (=> (and $t7 (not $t6)) (= (_ bv0 64) dfg_exit_%carry_i))))))
(assert
 (let (($t5 (and (distinct load@12_9_0 arg_key) true)))
(let ((?t8 (memref.dim_arg_a_->index_BitVec_64_ (_ bv0 64))))
(let (($t9 (bvult (_ bv0 64) ?t8)))
(let (($t10 (ite $t9 $t5 false)))
(let (($t7 (and true)))
(=> (and $t7 (not $t10)) (= (_ bv0 64) scf_exit_arg0@9_5))))))))
(check-sat)
