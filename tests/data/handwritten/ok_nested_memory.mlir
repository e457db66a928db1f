// ok_nested_memory: exclusive prefix sums, c[i] = a[0] + ... + a[i-1] for i < n: a nested loop
// whose inner bound is the outer index (the inner loop runs 0 times for i = 0, so it is not
// guarded). Domain a is read in the inner loop: its ctrl carry runs on the inner raw condition
// and is split by a cond_br into the body's ctrl (N tokens) and the inner exit token, which
// continues the outer chain; domain c is written once per outer iteration.
// verify: proved
// sim: {"a": [1, 2, 3, 4], "c": [9, 9, 9, 9], "n": 4} => completed [] c=[0, 1, 3, 6]
// sim: {"a": [5], "c": [9], "n": 1} => completed [] c=[0]
// sim: {"a": [5], "c": [9], "n": 0} => completed [] c=[9]
module {
  handshake.func @prefix(%a: memref<?xi32>, %c: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["a", "c", "n", "start"], resNames = ["done"]} {
    %s:4 = handshake.fork [4] %start : none
    %n2:2 = handshake.fork [2] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n2#0 : index
    %g:6 = handshake.fork [6] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    handshake.sink %ctrl_f : none
    %a_t, %a_f = handshake.cond_br %g#1, %s#2 : none
    %c_t, %c_f = handshake.cond_br %g#2, %s#3 : none
    %n_t, %n_f = handshake.cond_br %g#3, %n2#1 : index
    handshake.sink %n_f : index
    %ot:3 = handshake.fork [3] %ctrl_t : none
    %o0 = handshake.constant %ot#0 {value = 0 : index} : index
    %o1 = handshake.constant %ot#1 {value = 1 : index} : index
    %oi, %oc = dataflow.stream %o0, %o1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %oac = dataflow.gate %oi, %oc : index, i1 -> index, i1
    %oacf:5 = handshake.fork [5] %oac : i1
    %i:2 = handshake.fork [2] %iv : index
    %octl = dataflow.invariant %oacf#0, %ot#2 : i1, none -> none
    %ic:3 = handshake.fork [3] %octl : none
    %j0 = handshake.constant %ic#0 {value = 0 : index} : index
    %j1 = handshake.constant %ic#1 {value = 1 : index} : index
    %zero = handshake.constant %ic#2 {value = 0 : i32} : i32
    %ji, %jc = dataflow.stream %j0, %j1, %i#0 {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %jcf:5 = handshake.fork [5] %jc : i1
    %j, %jac = dataflow.gate %ji, %jcf#0 : index, i1 -> index, i1
    handshake.sink %jac : i1
    %acc = dataflow.carry %jcf#1, %zero, %next : i1, i32, i32 -> i32
    %acc_t, %acc_f = handshake.cond_br %jcf#2, %acc : i32
    %a_outer = dataflow.carry %oacf#1, %a_t, %a_back : i1, none, none -> none
    %a_in = dataflow.carry %jcf#3, %a_outer, %a_fb : i1, none, none -> none
    %a_body, %a_inner_exit = handshake.cond_br %jc_b, %a_in : none
    %jc_b = handshake.buffer [1] seq %jcb_src : i1
    %jcb_src = handshake.br %jcf#4 : i1
    %x, %x_addr = handshake.load [%j] %a_data, %a_body : index, i32
    %next = arith.addi %acc_t, %x : i32
    %a_fb = handshake.br %a_done : none
    %a_back, %a_exit = handshake.cond_br %oacf#2, %a_inner_exit : none
    %c_loop = dataflow.carry %oacf#3, %c_t, %c_back : i1, none, none -> none
    %st_d, %st_a = handshake.store [%i#1] %acc_f, %c_loop : index, i32
    %c_back, %c_exit = handshake.cond_br %oacf#4, %c_done : none
    %a_data, %a_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%x_addr) {id = 0 : i32} : (index) -> (i32, none)
    %c_done = handshake.extmemory[ld = 0, st = 1] (%c : memref<?xi32>) (%st_d, %st_a) {id = 1 : i32} : (i32, index) -> (none)
    %a_end = handshake.mux %g#4 [%a_f, %a_exit] : i1, none
    %c_end = handshake.mux %g#5 [%c_f, %c_exit] : i1, none
    %done = handshake.join %a_end, %c_end : none, none
    handshake.return %done : none
  }
}
