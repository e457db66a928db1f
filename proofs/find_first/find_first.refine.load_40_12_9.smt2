; loom verify obligation refine.load@12:9 of @find_first
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun scf_arg0@9_5 () (_ BitVec 64))
(declare-fun memref.dim_arg_a_->index_BitVec_64_ ((_ BitVec 64)) (_ BitVec 64))
(declare-fun dfg_%carry_i () (_ BitVec 64))
(assert
 (= scf_arg0@9_5 scf_arg0@9_5))
(assert
 (let (($t1 (= scf_arg0@9_5 scf_arg0@9_5)))
 (let ((?t2 (memref.dim_arg_a_->index_BitVec_64_ (_ bv0 64))))
 (let (($t3 (bvult scf_arg0@9_5 ?t2)))
 (let (($t4 (and true $t3)))
 (not (and (= $t4 $t4) (=> $t4 $t1))))))))
(assert
 (= dfg_%carry_i scf_arg0@9_5))
(check-sat)
