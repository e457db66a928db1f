// bad_done_exits_swapped_const: bad_done_exits_swapped with the constant trip count 3 (the bound
// is a handshake.constant, the argument n is dropped): the carry gets 1 feedback token where it
// needs 2 and the done mux 2 exit tokens where it takes 1. With a constant trip count the
// witness is that trip count (L0=3), with no argument.
// verify: refuted balance bmc.deadlock
// sim: {"a": [3, 4, 5], "n": 3} => deadlock
module {
  handshake.func @fork_sum(%a: memref<?xi32>, %n: index, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "n", "start"], resNames = ["sum", "done"]} {
    %s:5 = handshake.fork [5] %start : none
    handshake.sink %n : index
    %three = handshake.constant %s#4 {value = 3 : index} : index
    %n2:2 = handshake.fork [2] %three : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n2#0 : index
    %g:4 = handshake.fork [4] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    %mem_t, %mem_f = handshake.cond_br %g#1, %s#2 : none
    %n_t, %n_f = handshake.cond_br %g#2, %n2#1 : index
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %start_i = handshake.constant %ct#0 {value = 0 : index} : index
    %step_i = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %start_i, %step_i, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %cont2:2 = handshake.fork [2] %cont : i1
    %av, %ac = dataflow.gate %idx, %cont2#0 : index, i1 -> index, i1
    %ac2:2 = handshake.fork [2] %ac : i1
    %zero = handshake.constant %ct#2 {value = 0 : i32} : i32
    %cw:2 = handshake.fork [2] %cont2#1 : i1
    %acc = dataflow.carry %cw#0, %zero, %next : i1, i32, i32 -> i32
    %acc_t, %acc_f = handshake.cond_br %cw#1, %acc : i32
    %mctl = dataflow.carry %ac2#0, %mem_t, %body_done : i1, none, none -> none
    %v, %v_addr = handshake.load [%av] %ld_data, %mctl : index, i32
    %next = arith.addi %acc_t, %v : i32
    %exit_done, %body_done = handshake.cond_br %ac2#1, %ld_done : none
    %zero_f = handshake.constant %ctrl_f {value = 0 : i32} : i32
    %sum = handshake.mux %g#3 [%zero_f, %acc_f] : i1, i32
    %gd = handshake.fork [1] %g#3 : i1
    %done = handshake.mux %gd#0 [%mem_f, %exit_done] : i1, none
    %ld_data, %ld_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%v_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.sink %n_f : index
    handshake.return %sum, %done : i32, none
  }
}
