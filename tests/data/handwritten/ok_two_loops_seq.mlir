// ok_two_loops_seq: two loops in sequence over one memory domain: the first writes
// a[i] = i * i for i < n, the second sums a[0..n). The second loop's activation (its ctrl
// token) is the first loop's exit token and the second loop's memory chain is seeded by the
// first loop's exit done token, so every load sees the stores.
// verify: proved
// sim: {"a": [9, 9, 9, 9], "n": 4} => completed [14] a=[0, 1, 4, 9]
// sim: {"a": [9, 9], "n": 0} => completed [0] a=[9, 9]
module {
  handshake.func @two_loops(%a: memref<?xi32>, %n: index, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "n", "start"], resNames = ["sum", "done"]} {
    %s:3 = handshake.fork [3] %start : none
    %nn:3 = handshake.fork [3] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %nn#0 : index
    %g:7 = handshake.fork [7] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    %mem_t, %mem_f = handshake.cond_br %g#1, %s#2 : none
    %n1_t, %n1_f = handshake.cond_br %g#2, %nn#1 : index
    handshake.sink %n1_f : index
    %n2_t, %n2_f = handshake.cond_br %g#3, %nn#2 : index
    handshake.sink %n2_f : index
    %c1:3 = handshake.fork [3] %ctrl_t : none
    %p0 = handshake.constant %c1#0 {value = 0 : index} : index
    %p1 = handshake.constant %c1#1 {value = 1 : index} : index
    %pi, %pc = dataflow.stream %p0, %p1, %n1_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %pcf:3 = handshake.fork [3] %pc : i1
    %piv, %pac = dataflow.gate %pi, %pcf#0 : index, i1 -> index, i1
    %pacf:2 = handshake.fork [2] %pac : i1
    %l1ctl = dataflow.carry %pcf#1, %c1#2, %l1ctl_t : i1, none, none -> none
    %l1ctl_t, %l1_exit = handshake.cond_br %pcf#2, %l1ctl : none
    %pi2:2 = handshake.fork [2] %piv : index
    %pw = arith.index_cast %pi2#0 : index to i32
    %pw2:2 = handshake.fork [2] %pw : i32
    %sq = arith.muli %pw2#0, %pw2#1 : i32
    %m1 = dataflow.carry %pacf#0, %mem_t, %m1_back : i1, none, none -> none
    %st_d, %st_a = handshake.store [%pi2#1] %sq, %m1 : index, i32
    %m1_back, %m1_exit = handshake.cond_br %pacf#1, %st_done : none
    %c2:3 = handshake.fork [3] %l1_exit : none
    %q0 = handshake.constant %c2#0 {value = 0 : index} : index
    %q1 = handshake.constant %c2#1 {value = 1 : index} : index
    %qi, %qc = dataflow.stream %q0, %q1, %n2_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %qcf:3 = handshake.fork [3] %qc : i1
    %qiv, %qac = dataflow.gate %qi, %qcf#0 : index, i1 -> index, i1
    %qacf:2 = handshake.fork [2] %qac : i1
    %zero = handshake.constant %c2#2 {value = 0 : i32} : i32
    %acc = dataflow.carry %qcf#1, %zero, %next : i1, i32, i32 -> i32
    %acc_t, %acc_f = handshake.cond_br %qcf#2, %acc : i32
    %m2 = dataflow.carry %qacf#0, %m1_exit, %m2_back : i1, none, none -> none
    %v, %v_addr = handshake.load [%qiv] %a_data, %m2 : index, i32
    %next = arith.addi %acc_t, %v : i32
    %m2_back, %m2_exit = handshake.cond_br %qacf#1, %ld_done : none
    %zero_f = handshake.constant %ctrl_f {value = 0 : i32} : i32
    %sum = handshake.mux %g#4 [%zero_f, %acc_f] : i1, i32
    %done = handshake.mux %g#5 [%mem_f, %m2_exit] : i1, none
    handshake.sink %g#6 : i1
    %a_data, %st_done, %ld_done = handshake.extmemory[ld = 1, st = 1] (%a : memref<?xi32>) (%st_d, %st_a, %v_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
    handshake.return %sum, %done : i32, none
  }
}
