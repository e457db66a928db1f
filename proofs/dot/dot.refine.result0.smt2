; loom verify obligation refine.result0 of @dot
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-sort f32 0)
(declare-fun dfg_exit_%carry_acc () f32)
(declare-fun f32_0.0 () f32)
(declare-fun arg_n () (_ BitVec 64))
(declare-fun scf_exit_iter0@7_5 () f32)
(declare-fun scf_exit_iv@7_5 () (_ BitVec 64))
(declare-fun dfg_exit_idx@%index () (_ BitVec 64))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
 (let (($t2 (not $t1)))
 (let ((?t3 (ite $t2 f32_0.0 dfg_exit_%carry_acc)))
 (let (($t4 (=> true (= scf_exit_iter0@7_5 ?t3))))
 (let (($t5 (= true true)))
 (let (($t6 (and $t5 $t4)))
 (not $t6))))))))
(assert
 (let (($t7 (and (= dfg_exit_idx@%index scf_exit_iv@7_5) (= dfg_exit_%carry_acc scf_exit_iter0@7_5))))
 (=> (and (and true (bvslt (_ bv0 64) arg_n)) true) $t7)))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
 (let (($t2 (not $t1)))
 (let (($t8 (and (and (and true $t1)) $t2)))
 (=> $t8 (= (_ bv0 64) dfg_exit_idx@%index))))))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
 (let (($t2 (not $t1)))
 (let (($t8 (and (and (and true $t1)) $t2)))
 (=> $t8 (= dfg_exit_%carry_acc f32_0.0))))))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
 (let (($t2 (not $t1)))
 (let (($t9 (and (and true) $t2)))
 (=> $t9 (= (_ bv0 64) scf_exit_iv@7_5))))))
(assert
 (let (($t10 (= scf_exit_iter0@7_5 f32_0.0)))
(let (($t1 (bvslt (_ bv0 64) arg_n)))
(let (($t2 (not $t1)))
(let (($t9 (and (and true) $t2)))
(=> $t9 $t10))))))
(check-sat)
