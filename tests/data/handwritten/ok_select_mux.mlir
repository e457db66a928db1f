// ok_select_mux: a data-dependent branch inside a loop whose two sides are rejoined by an
// index-select handshake.mux; the select is arith.select(c, 1, 0) of the branch condition
// (the form the memory spec allows for a branch's rejoin), computed per iteration from
// constants triggered by the iteration's ctrl token:  s += (a[i] & 1) ? a[i] : 2 * a[i].
// verify: proved
// sim: {"a": [1, 2, 3, 4], "n": 4} => completed [16]
// sim: {"a": [], "n": 0} => completed [0]
module {
  handshake.func @select_mux(%a: memref<?xi32>, %n: index, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "n", "start"], resNames = ["sum", "done"]} {
    %s:5 = handshake.fork [5] %start : none
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %c1 = handshake.constant %s#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %cf:7 = handshake.fork [7] %cont : i1
    %i, %ac = dataflow.gate %idx, %cf#0 : index, i1 -> index, i1
    handshake.sink %ac : i1
    %zero = handshake.constant %s#2 {value = 0 : i32} : i32
    %acc = dataflow.carry %cf#1, %zero, %next : i1, i32, i32 -> i32
    %acc_t, %acc_f = handshake.cond_br %cf#2, %acc : i32
    %mem = dataflow.carry %cf#3, %s#3, %ld_done : i1, none, none -> none
    %m_body, %m_exit = handshake.cond_br %cf#4, %mem : none
    %rep = dataflow.invariant %cf#5, %s#4 : i1, none -> none
    %bctl, %bexit = handshake.cond_br %cf#6, %rep : none
    handshake.sink %bexit : none
    %b:5 = handshake.fork [5] %bctl : none
    %x, %x_addr = handshake.load [%i] %a_data, %m_body : index, i32
    %xf:2 = handshake.fork [2] %x : i32
    %one = handshake.constant %b#0 {value = 1 : i32} : i32
    %zero_w = handshake.constant %b#1 {value = 0 : i32} : i32
    %bit = arith.andi %xf#0, %one : i32
    %oddv = arith.cmpi ne, %bit, %zero_w : i32
    %odd:3 = handshake.fork [3] %oddv : i1
    %x_t, %x_f = handshake.cond_br %odd#0, %xf#1 : i32
    %k_t, %k_f = handshake.cond_br %odd#1, %b#2 : none
    handshake.sink %k_t : none
    %two = handshake.constant %k_f {value = 2 : i32} : i32
    %y_f = arith.muli %x_f, %two : i32
    %one_i = handshake.constant %b#3 {value = 1 : index} : index
    %zero_i = handshake.constant %b#4 {value = 0 : index} : index
    %sel = arith.select %odd#2, %one_i, %zero_i : index
    %y = handshake.mux %sel [%y_f, %x_t] : index, i32
    %next = arith.addi %acc_t, %y : i32
    %a_data, %ld_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%x_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.return %acc_f, %m_exit : i32, none
  }
}
