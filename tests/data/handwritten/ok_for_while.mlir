// ok_for_while: a while loop nested in a for loop, both written by hand: for i < n, count how
// many halvings bring a[i] down to at most 1 (while x > 1: x = x >> 1, k += 1), and store the
// count in b[i]. The inner while's carries are seeded once per outer iteration, its trip
// count depends on the loaded data; the inner ctrl token is a dataflow.invariant on the while
// condition seeded by the outer body's ctrl.
// verify: proved
// sim: {"a": [1, 2, 8, 0, 9], "b": [9, 9, 9, 9, 9], "n": 5} => completed [] b=[0, 1, 3, 0, 3]
// sim: {"a": [4], "b": [9], "n": 0} => completed [] b=[9]
module {
  handshake.func @for_while(%a: memref<?xi32>, %b: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["a", "b", "n", "start"], resNames = ["done"]} {
    %s:4 = handshake.fork [4] %start : none
    %nn:2 = handshake.fork [2] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %nn#0 : index
    %g:6 = handshake.fork [6] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    handshake.sink %ctrl_f : none
    %a_t, %a_f = handshake.cond_br %g#1, %s#2 : none
    %b_t, %b_f = handshake.cond_br %g#2, %s#3 : none
    %n_t, %n_f = handshake.cond_br %g#3, %nn#1 : index
    handshake.sink %n_f : index
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    %acf:5 = handshake.fork [5] %ac : i1
    %i:2 = handshake.fork [2] %iv : index
    %body = dataflow.invariant %acf#0, %ct#2 : i1, none -> none
    %bd:2 = handshake.fork [2] %body : none
    %a_loop = dataflow.carry %acf#1, %a_t, %a_back : i1, none, none -> none
    %x0, %x_addr = handshake.load [%i#0] %a_data, %a_loop : index, i32
    %k0 = handshake.constant %bd#0 {value = 0 : i32} : i32
    %x = dataflow.carry %go#0, %x0, %x_next : i1, i32, i32 -> i32
    %k = dataflow.carry %go#1, %k0, %k_next : i1, i32, i32 -> i32
    %wctl = dataflow.invariant %go#2, %bd#1 : i1, none -> none
    %wc:2 = handshake.fork [2] %wctl : none
    %one_c = handshake.constant %wc#0 {value = 1 : i32} : i32
    %xf:2 = handshake.fork [2] %x : i32
    %gov = arith.cmpi sgt, %xf#0, %one_c : i32
    %go:6 = handshake.fork [6] %gov : i1
    %x_t, %x_f = handshake.cond_br %go#3, %xf#1 : i32
    handshake.sink %x_f : i32
    %k_t, %k_f = handshake.cond_br %go#4, %k : i32
    %w_t, %w_f = handshake.cond_br %go#5, %wc#1 : none
    handshake.sink %w_f : none
    %wt:2 = handshake.fork [2] %w_t : none
    %one_s = handshake.constant %wt#0 {value = 1 : i32} : i32
    %one_k = handshake.constant %wt#1 {value = 1 : i32} : i32
    %x_next = arith.shrui %x_t, %one_s : i32
    %k_next = arith.addi %k_t, %one_k : i32
    %b_loop = dataflow.carry %acf#2, %b_t, %b_back : i1, none, none -> none
    %st_d, %st_a = handshake.store [%i#1] %k_f, %b_loop : index, i32
    %a_back, %a_exit = handshake.cond_br %acf#3, %a_done : none
    %b_back, %b_exit = handshake.cond_br %acf#4, %b_done : none
    %a_data, %a_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%x_addr) {id = 0 : i32} : (index) -> (i32, none)
    %b_done = handshake.extmemory[ld = 0, st = 1] (%b : memref<?xi32>) (%st_d, %st_a) {id = 1 : i32} : (i32, index) -> (none)
    %a_end = handshake.mux %g#4 [%a_f, %a_exit] : i1, none
    %b_end = handshake.mux %g#5 [%b_f, %b_exit] : i1, none
    %done = handshake.join %a_end, %b_end : none, none
    handshake.return %done : none
  }
}
