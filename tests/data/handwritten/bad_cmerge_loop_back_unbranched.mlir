// bad_cmerge_loop_back_unbranched: ok_cmerge_loop_sum whose bound goes back without its cond_br: the exit iteration sends it back too, one token more than the true conditions.
// verify: refuted balance
// twin: ok_cmerge_loop_sum.mlir
// sim: {"n": 3} => residual
module {
  handshake.func @loop_sum(%n: i64, %start: none, ...) -> (i64, none) attributes {argNames = ["n", "start"], resNames = ["sum", "done"]} {
    %s:3 = fork [3] %start : none
    %zero = constant %s#0 {value = 0 : i64} : i64
    %zero2 = constant %s#1 {value = 0 : i64} : i64
    %ctl, %idx = control_merge %s#2, %back : none, index
    %ix:3 = fork [3] %idx : index
    %i = mux %ix#0 [%zero, %i_next] : index, i64
    %acc = mux %ix#1 [%zero2, %acc_next] : index, i64
    %nv = mux %ix#2 [%n, %nf#1] : index, i64
    %if:2 = fork [2] %i : i64
    %nf:2 = fork [2] %nv : i64
    %ltv = arith.cmpi slt, %if#0, %nf#0 : i64
    %lt:4 = fork [4] %ltv : i1
    %i_t, %i_f = cond_br %lt#0, %if#1 : i64
    sink %i_f : i64
    %acc_t, %acc_f = cond_br %lt#1, %acc : i64
    %c_t, %c_f = cond_br %lt#3, %ctl : none
    %ct:2 = fork [2] %c_t : none
    %one = constant %ct#0 {value = 1 : i64} : i64
    %it:2 = fork [2] %i_t : i64
    %acc_next = arith.addi %acc_t, %it#0 : i64
    %i_next = arith.addi %it#1, %one : i64
    %back = br %ct#1 : none
    return %acc_f, %c_f : i64, none
  }
}
