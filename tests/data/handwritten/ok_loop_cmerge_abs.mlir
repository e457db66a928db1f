// ok_loop_cmerge_abs: sum of |a[i]| for i < n without a dataflow.gate: the body's index is the
// true side of a handshake.cond_br on the raw condition, the memory ctrl carry runs on the
// raw condition and is split the same way. Inside the body a data-dependent if/else is
// rejoined CIRCT-style: handshake.control_merge of the two branch ctrl tokens, its index
// selecting the branch value in an index-select handshake.mux.
// verify: proved
// sim: {"a": [3, -4, 0, -5], "n": 4} => completed [12]
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
    %cm, %which = handshake.control_merge %cff#1, %ctl_t : none, index
    handshake.sink %cm : none
    %y = handshake.mux %which [%y_f, %y_t] : index, i32
    %next = arith.addi %acc_t, %y : i32
    %a_data, %ld_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%x_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.return %acc_f, %m_exit : i32, none
  }
}
