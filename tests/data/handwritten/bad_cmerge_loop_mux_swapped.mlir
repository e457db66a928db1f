// bad_cmerge_loop_mux_swapped: ok_cmerge_loop_sum with the accumulator mux's inputs swapped: on the loop header's index 0 it waits for the back edge. The mux's seed is on the loop's own cycle: not typed (unknown); the bounded check refutes.
// verify: refuted bmc.deadlock
// twin: ok_cmerge_loop_sum.mlir
// sim: {"n": 10} => deadlock
module {
  handshake.func @loop_sum(%n: i64, %start: none, ...) -> (i64, none) attributes {argNames = ["n", "start"], resNames = ["sum", "done"]} {
    %s:3 = fork [3] %start : none
    %zero = constant %s#0 {value = 0 : i64} : i64
    %zero2 = constant %s#1 {value = 0 : i64} : i64
    %ctl, %idx = control_merge %s#2, %back : none, index
    %ix:3 = fork [3] %idx : index
    %i = mux %ix#0 [%zero, %i_next] : index, i64
    %acc = mux %ix#1 [%acc_next, %zero2] : index, i64
    %nv = mux %ix#2 [%n, %n_back] : index, i64
    %if:2 = fork [2] %i : i64
    %nf:2 = fork [2] %nv : i64
    %ltv = arith.cmpi slt, %if#0, %nf#0 : i64
    %lt:4 = fork [4] %ltv : i1
    %i_t, %i_f = cond_br %lt#0, %if#1 : i64
    sink %i_f : i64
    %acc_t, %acc_f = cond_br %lt#1, %acc : i64
    %n_back, %n_f = cond_br %lt#2, %nf#1 : i64
    sink %n_f : i64
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
