; loom verify obligation refine.result1 of @collatz
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun dfg_exit_%carry_peak () (_ BitVec 64))
(declare-fun scf_exit_arg2@9_5 () (_ BitVec 64))
(declare-fun scf_exit_arg1@9_5 () (_ BitVec 64))
(declare-fun dfg_exit_%carry_steps () (_ BitVec 64))
(declare-fun scf_exit_arg0@9_5 () (_ BitVec 64))
(declare-fun dfg_exit_%carry_x () (_ BitVec 64))
(declare-fun arg_n () (_ BitVec 64))
(assert
 (let (($t1 (= scf_exit_arg2@9_5 dfg_exit_%carry_peak)))
 (let (($t2 (=> true $t1)))
 (let (($t3 (= true true)))
 (let (($t4 (and $t3 $t2)))
 (not $t4))))))
(assert
 (let (($t5 (= dfg_exit_%carry_peak scf_exit_arg2@9_5)))
 (let (($t6 (= dfg_exit_%carry_steps scf_exit_arg1@9_5)))
 (let (($t7 (= dfg_exit_%carry_x scf_exit_arg0@9_5)))
 (=> (and true true) (and $t7 $t6 $t5))))))
(assert
 (let (($t8 (= dfg_exit_%carry_x arg_n)))
 (let (($t9 (and (and true) (not (bvugt arg_n (_ bv1 64))))))
 (=> $t9 $t8))))
(assert
 (let (($t9 (and (and true) (not (bvugt arg_n (_ bv1 64))))))
 (=> $t9 (= (_ bv0 64) dfg_exit_%carry_steps))))
(assert
 (let (($t10 (= dfg_exit_%carry_peak arg_n)))
 (let (($t9 (and (and true) (not (bvugt arg_n (_ bv1 64))))))
 (=> $t9 $t10))))
(assert
 (let (($t11 (= scf_exit_arg0@9_5 arg_n)))
 (let (($t9 (and (and true) (not (bvugt arg_n (_ bv1 64))))))
 (=> $t9 $t11))))
(assert
 (let (($t9 (and (and true) (not (bvugt arg_n (_ bv1 64))))))
 (=> $t9 (= (_ bv0 64) scf_exit_arg1@9_5))))
(assert
 (let (($t12 (= scf_exit_arg2@9_5 arg_n)))
(let (($t9 (and (and true) (not (bvugt arg_n (_ bv1 64))))))
(=> $t9 $t12))))
(check-sat)
