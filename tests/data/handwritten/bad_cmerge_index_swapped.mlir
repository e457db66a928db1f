// bad_cmerge_index_swapped: ok_loop_cmerge_abs with the control_merge's inputs in the other
// order: its index now says 0 for the then-branch, so the mux takes the else-branch value
// when the then-branch ran (and vice versa), waiting for a token that was never produced.
// verify: refuted balance bmc.deadlock
// twin: ok_loop_cmerge_abs.mlir
// sim: {"a": [3, -4, 0, -5], "n": 4} => deadlock
// sim: {"a": [], "n": 0} => completed [0]
module {
  handshake.func @loop_abs(%a: memref<?xi32>, %n: index, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "n", "start"], resNames = ["sum", "done"]} {
    %s:5 = handshake.fork [5] %start : none
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %c1 = handshake.constant %s#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %cf:6 = handshake.fork [6] %cont : i1
    %i, %i_exit = handshake.cond_br %cf#0, %idx : index
    handshake.sink %i_exit : index
    %zero = handshake.constant %s#2 {value = 0 : i32} : i32
    %acc = dataflow.carry %cf#1, %zero, %next : i1, i32, i32 -> i32
    %acc_t, %acc_f = handshake.cond_br %cf#2, %acc : i32
    %mem = dataflow.carry %cf#3, %s#3, %ld_done : i1, none, none -> none
    %m_body, %m_exit = handshake.cond_br %cf#4, %mem : none
    %s4 = handshake.br %s#4 : none
    %cf6:2 = handshake.fork [2] %cf6src : i1
    %cf6src = handshake.buffer [1] seq %cf#5 : i1
    %rep = dataflow.invariant %cf6#0, %s4 : i1, none -> none
    %bctl, %bctl_exit = handshake.cond_br %cf6#1, %rep : none
    handshake.sink %bctl_exit : none
    %b:2 = handshake.fork [2] %bctl : none
    %x, %x_addr = handshake.load [%i] %a_data, %m_body : index, i32
    %xf:2 = handshake.fork [2] %x : i32
    %zb = handshake.constant %b#0 {value = 0 : i32} : i32
    %posv = arith.cmpi sgt, %xf#0, %zb : i32
    %pos:2 = handshake.fork [2] %posv : i1
    %x_t, %x_f = handshake.cond_br %pos#0, %xf#1 : i32
    %ctl_t, %ctl_f = handshake.cond_br %pos#1, %b#1 : none
    %cff:2 = handshake.fork [2] %ctl_f : none
    %y_t = handshake.br %x_t : i32
    %zc = handshake.constant %cff#0 {value = 0 : i32} : i32
    %y_f = arith.subi %zc, %x_f : i32
    %cm, %which = handshake.control_merge %ctl_t, %cff#1 : none, index
    handshake.sink %cm : none
    %y = handshake.mux %which [%y_f, %y_t] : index, i32
    %next = arith.addi %acc_t, %y : i32
    %a_data, %ld_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%x_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.return %acc_f, %m_exit : i32, none
  }
}
