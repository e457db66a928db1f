// bad_primed_select_no_back_branch: ok_primed_select_sum without the cond_br on the bound's back edge: the bound goes back on the exit iteration too, one token more than the carry's true conditions.
// verify: refuted balance bmc.residual
// twin: ok_primed_select_sum.mlir
// sim: {"n": 10} => residual
module {
  handshake.func @sum_to(%n_in: i64, %go: none, ...) -> (i64, none) attributes {argNames = ["n", "go"], resNames = ["out0", "outCtrl"]} {
    %g:3 = fork [3] %go : none
    %c_one = constant %g#0 {value = 1 : i64} : i64
    %c_zero = constant %g#1 {value = 0 : i64} : i64
    %sel = buffer [1] seq %cond#0 {initValues = [0]} : i1
    %s:4 = fork [4] %sel : i1
    %ctl = mux %s#0 [%g#2, %ctl_back] : i1, none
    %i = mux %s#1 [%c_one, %i_next] : i1, i64
    %acc = mux %s#2 [%c_zero, %acc_next] : i1, i64
    %n = mux %s#3 [%n_in, %n2#1] : i1, i64
    %i2:2 = fork [2] %i : i64
    %n2:2 = fork [2] %n : i64
    %lt = arith.cmpi slt, %i2#0, %n2#0 : i64
    %cond:5 = fork [5] %lt : i1
    %i_in, %i_out = cond_br %cond#2, %i2#1 : i64
    sink %i_out : i64
    %acc_in, %acc_out = cond_br %cond#3, %acc : i64
    %ctl_in, %ctl_out = cond_br %cond#4, %ctl : none
    %cb:2 = fork [2] %ctl_in : none
    %ctl_back = br %cb#0 : none
    %i3:2 = fork [2] %i_in : i64
    %acc_next = arith.addi %acc_in, %i3#0 : i64
    %one = constant %cb#1 {value = 1 : i64} : i64
    %i_next = arith.addi %i3#1, %one : i64
    return %acc_out, %ctl_out : i64, none
  }
}
