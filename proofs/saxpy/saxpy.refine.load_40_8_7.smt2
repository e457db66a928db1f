; loom verify obligation refine.load@8:7 of @saxpy
; verdict: proved (unsat means proved)
; benchmark generated from python API
(set-info :status unknown)
(declare-fun arg_n () (_ BitVec 64))
(declare-fun scf_iv@6_5 () (_ BitVec 64))
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
 (let (($t1 (bvslt (_ bv0 64) arg_n)))
 (let (($t2 (and true $t1)))
 (let (($t3 (= true $t2)))
 (not (and $t3 (=> true (= scf_iv@6_5 scf_iv@6_5))))))))
(assert
 (= dfg_idx@%index scf_iv@6_5))
(check-sat)
