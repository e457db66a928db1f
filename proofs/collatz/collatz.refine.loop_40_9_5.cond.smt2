; loom verify obligation refine.loop@9:5.cond of @collatz
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun scf_arg0@9_5 () (_ BitVec 64))
(declare-fun scf_arg1@9_5 () (_ BitVec 64))
(declare-fun scf_arg2@9_5 () (_ BitVec 64))
(declare-fun dfg_%carry_x () (_ BitVec 64))
(declare-fun dfg_%carry_steps () (_ BitVec 64))
(declare-fun dfg_%carry_peak () (_ BitVec 64))
(assert
 (= scf_arg0@9_5 scf_arg0@9_5))
(assert
 (= scf_arg1@9_5 scf_arg1@9_5))
(assert
 (= scf_arg2@9_5 scf_arg2@9_5))
(assert
 (not (= (bvugt scf_arg0@9_5 (_ bv1 64)) (bvugt scf_arg0@9_5 (_ bv1 64)))))
(assert
 (= dfg_%carry_x scf_arg0@9_5))
(assert
 (= dfg_%carry_steps scf_arg1@9_5))
(assert
 (= dfg_%carry_peak scf_arg2@9_5))
(check-sat)
