// bad_missing_edge_war: ok_war_chain without the load -> store ctrl-done edge: the load and
// the store of a take forks of the same iteration ctrl token and their done tokens are
// joined. Nothing orders the write after the read any more: a race on a[i]. The simulator's
// memory serves ready stores first, so b receives the new values instead of the old ones.
// verify: refuted mem.order
// twin: ok_war_chain.mlir
// sim: {"a": [7, 8, 9], "b": [0, 0, 0], "n": 3} => completed [] a=[0, 1, 2] b=[0, 1, 2]
module {
  handshake.func @war(%a: memref<?xi32>, %b: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["a", "b", "n", "start"], resNames = ["done"]} {
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
    %ct:2 = handshake.fork [2] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    %acf:4 = handshake.fork [4] %ac : i1
    %i:4 = handshake.fork [4] %iv : index
    %a_loop = dataflow.carry %acf#0, %a_t, %a_back : i1, none, none -> none
    %al:2 = handshake.fork [2] %a_loop : none
    %x, %x_addr = handshake.load [%i#0] %a_data, %al#0 : index, i32
    %iw = arith.index_cast %i#1 : index to i32
    %st_d, %st_a = handshake.store [%i#2] %iw, %al#1 : index, i32
    %a_it = handshake.join %ld_done, %st_done : none, none
    %a_back, %a_exit = handshake.cond_br %acf#1, %a_it : none
    %a_data, %st_done, %ld_done = handshake.extmemory[ld = 1, st = 1] (%a : memref<?xi32>) (%st_d, %st_a, %x_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
    %b_loop = dataflow.carry %acf#2, %b_t, %b_back : i1, none, none -> none
    %bs_d, %bs_a = handshake.store [%i#3] %x, %b_loop : index, i32
    %b_back, %b_exit = handshake.cond_br %acf#3, %b_done : none
    %b_done = handshake.extmemory[ld = 0, st = 1] (%b : memref<?xi32>) (%bs_d, %bs_a) {id = 1 : i32} : (i32, index) -> (none)
    %a_end = handshake.mux %g#4 [%a_f, %a_exit] : i1, none
    %b_end = handshake.mux %g#5 [%b_f, %b_exit] : i1, none
    %done = handshake.join %a_end, %b_end : none, none
    handshake.return %done : none
  }
}
