; loom verify obligation refine.store@11:7 of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-sort f32 0)
(declare-fun arg_n () (_ BitVec 64))
(declare-fun scf_iv@6_5 () (_ BitVec 64))
(declare-fun arith.addf___0->f32_f32_f32 (f32 f32) f32)
(declare-fun load@8_7_1 () f32)
(declare-fun arith.mulf___0->f32_f32_f32 (f32 f32) f32)
(declare-fun load@7_7_0 () f32)
(declare-fun arg_a () f32)
(declare-fun dfg_idx@%index () (_ BitVec 64))
(assert
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
 (and true $t1)))
(assert
 (= scf_iv@6_5 scf_iv@6_5))
(assert
 (bvsle (_ bv0 64) scf_iv@6_5))
(assert
 (bvuge scf_iv@6_5 (_ bv0 64)))
(assert
 (bvsle (_ bv0 64) scf_iv@6_5))
(assert
 (bvuge scf_iv@6_5 (_ bv0 64)))
(assert
 (bvslt scf_iv@6_5 arg_n))
(assert
 (bvslt (_ bv0 64) arg_n))
(assert
 (bvslt scf_iv@6_5 arg_n))
(assert
 (bvslt (_ bv0 64) arg_n))
(assert
 (let ((?t2 (arith.mulf___0->f32_f32_f32 arg_a load@7_7_0)))
 (let ((?t3 (arith.addf___0->f32_f32_f32 ?t2 load@8_7_1)))
 (let (($t4 (=> true (= ?t3 ?t3))))
 (let (($t5 (= scf_iv@6_5 scf_iv@6_5)))
 (let (($t6 (=> true $t5)))
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
 (let (($t7 (and true $t1)))
 (let (($t8 (= true $t7)))
 (not (and $t8 $t6 $t4)))))))))))
(assert
 (= dfg_idx@%index scf_iv@6_5))
(check-sat)
