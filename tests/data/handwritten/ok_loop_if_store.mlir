// ok_loop_if_store: for i < n: if a[i] > t then b[i] = a[i] (a store in one branch only). The
// b-domain ctrl token of the iteration is split by handshake.cond_br on the comparison; the
// then-side runs the store, the else-side passes straight through, and an i1 handshake.mux on
// the same condition rejoins the store's done token with the bypass for the next iteration.
// verify: proved
// sim: {"a": [1, 5, 2, 9], "b": [0, 0, 0, 0], "n": 4, "t": 3} => completed [] b=[0, 5, 0, 9]
// sim: {"a": [1, 5], "b": [7, 7], "n": 0, "t": 3} => completed [] b=[7, 7]
module {
  handshake.func @loop_if_store(%a: memref<?xi32>, %b: memref<?xi32>, %n: index, %t: i32, %start: none, ...) -> none attributes {argNames = ["a", "b", "n", "t", "start"], resNames = ["done"]} {
    %s:4 = handshake.fork [4] %start : none
    %nn:2 = handshake.fork [2] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %nn#0 : index
    %g:7 = handshake.fork [7] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    handshake.sink %ctrl_f : none
    %a_t, %a_f = handshake.cond_br %g#1, %s#2 : none
    %b_t, %b_f = handshake.cond_br %g#2, %s#3 : none
    %n_t, %n_f = handshake.cond_br %g#3, %nn#1 : index
    handshake.sink %n_f : index
    %t_t, %t_f = handshake.cond_br %g#4, %t : i32
    handshake.sink %t_f : i32
    %ct:2 = handshake.fork [2] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    %acf:5 = handshake.fork [5] %ac : i1
    %i:2 = handshake.fork [2] %iv : index
    %tb = dataflow.invariant %acf#0, %t_t : i1, i32 -> i32
    %a_loop = dataflow.carry %acf#1, %a_t, %a_back : i1, none, none -> none
    %x, %x_addr = handshake.load [%i#0] %a_data, %a_loop : index, i32
    %xf:2 = handshake.fork [2] %x : i32
    %bigv = arith.cmpi sgt, %xf#0, %tb : i32
    %big:4 = handshake.fork [4] %bigv : i1
    %x_t, %x_f = handshake.cond_br %big#0, %xf#1 : i32
    handshake.sink %x_f : i32
    %i_t, %i_f = handshake.cond_br %big#1, %i#1 : index
    handshake.sink %i_f : index
    %b_loop = dataflow.carry %acf#2, %b_t, %b_back : i1, none, none -> none
    %bc_t, %bc_f = handshake.cond_br %big#2, %b_loop : none
    %st_d, %st_a = handshake.store [%i_t] %x_t, %bc_t : index, i32
    %b_it = handshake.mux %big#3 [%bc_f, %b_done] : i1, none
    %a_back, %a_exit = handshake.cond_br %acf#3, %a_done : none
    %b_back, %b_exit = handshake.cond_br %acf#4, %b_it : none
    %a_data, %a_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%x_addr) {id = 0 : i32} : (index) -> (i32, none)
    %b_done = handshake.extmemory[ld = 0, st = 1] (%b : memref<?xi32>) (%st_d, %st_a) {id = 1 : i32} : (i32, index) -> (none)
    %a_end = handshake.mux %g#5 [%a_f, %a_exit] : i1, none
    %b_end = handshake.mux %g#6 [%b_f, %b_exit] : i1, none
    %done = handshake.join %a_end, %b_end : none, none
    handshake.return %done : none
  }
}
