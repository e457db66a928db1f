// ok_cmerge_two_backs: acc = 0; for (i = 0; i < n; ++i) acc += (i & 1) ? 1 : 2 -- in the form CIRCT's
// SCF/CF-to-handshake lowering gives a loop whose body ends in an if (cf. CIRCT's gcd in
// test-dematerialize): a 3-input control_merge with the entry last and one back edge per branch of
// the if, and 3-way muxes on its index. The calculus types the header as dataflow.carry with two back
// edges (disjoint, together one token per true condition) and each mux input as its back edge's tokens.
// verify: proved
// sim: {"n": 5} => completed [8]
// sim: {"n": 0} => completed [0]
// sim: {"n": 1} => completed [2]
module {
  handshake.func @two_backs(%n: i64, %start: none, ...) -> (i64, none) attributes {argNames = ["n", "start"], resNames = ["acc", "done"]} {
    %s:3 = fork [3] %start : none
    %zero = constant %s#0 {value = 0 : i64} : i64
    %zero2 = constant %s#1 {value = 0 : i64} : i64
    %ctl, %idx = control_merge %bk_t, %bk_f, %s#2 : none, index
    %ix:3 = fork [3] %idx : index
    %i = mux %ix#0 [%i_a, %i_b, %zero] : index, i64
    %acc = mux %ix#1 [%acc_a, %acc_b, %zero2] : index, i64
    %nv = mux %ix#2 [%n_a, %n_b, %n] : index, i64
    %if:2 = fork [2] %i : i64
    %nf:2 = fork [2] %nv : i64
    %ltv = arith.cmpi slt, %if#0, %nf#0 : i64
    %lt:4 = fork [4] %ltv : i1
    %c_t, %c_f = cond_br %lt#0, %ctl : none
    %i_t, %i_f = cond_br %lt#1, %if#1 : i64
    sink %i_f : i64
    %acc_t, %acc_f = cond_br %lt#2, %acc : i64
    %n_t, %n_f = cond_br %lt#3, %nf#1 : i64
    sink %n_f : i64
    %ct:2 = fork [2] %c_t : none
    %one = constant %ct#0 {value = 1 : i64} : i64
    %it:2 = fork [2] %i_t : i64
    %bit = arith.andi %it#0, %one : i64
    %ct2:2 = fork [2] %ct#1 : none
    %zz = constant %ct2#0 {value = 0 : i64} : i64
    %oddv = arith.cmpi ne, %bit, %zz : i64
    %odd:4 = fork [4] %oddv : i1
    %bk_t, %bk_f = cond_br %odd#0, %ct2#1 : none
    %ia, %ib = cond_br %odd#1, %it#1 : i64
    %aa, %ab = cond_br %odd#2, %acc_t : i64
    %n_a, %n_b = cond_br %odd#3, %n_t : i64
    %c1a = arith.constant 1 : i64
    %c1b = arith.constant 1 : i64
    %c1c = arith.constant 1 : i64
    %c2 = arith.constant 2 : i64
    %i_a = arith.addi %ia, %c1a : i64
    %i_b = arith.addi %ib, %c1b : i64
    %acc_a = arith.addi %aa, %c1c : i64
    %acc_b = arith.addi %ab, %c2 : i64
    return %acc_f, %c_f : i64, none
  }
}
