// bad_alias_two_domains: ok_war_chain with the store to a moved to a second
// handshake.extmemory on the same memref argument a, and its own ctrl chain: two memory
// interfaces over one buffer are not alias-free domains, and nothing orders the store after
// the load of the same element any more (the load's ctrl passes three handshake.br, so the
// simulator serves the store first: b gets the new values).
// verify: refuted mem.alias
// twin: ok_war_chain.mlir
// sim: {"a": [7, 8, 9], "b": [0, 0, 0], "n": 3} => completed [] a=[0, 1, 2] b=[7, 1, 2]
module {
  handshake.func @war(%a: memref<?xi32>, %b: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["a", "b", "n", "start"], resNames = ["done"]} {
    %s:5 = handshake.fork [5] %start : none
    %nn:2 = handshake.fork [2] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %nn#0 : index
    %g:9 = handshake.fork [9] %guard : i1
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
    %acf:6 = handshake.fork [6] %ac : i1
    %i:4 = handshake.fork [4] %iv : index
    %a_loop = dataflow.carry %acf#0, %a_t, %a_back : i1, none, none -> none
    %d1 = handshake.br %a_loop : none
    %d2 = handshake.br %d1 : none
    %d3 = handshake.br %d2 : none
    %x, %x_addr = handshake.load [%i#0] %a_data, %d3 : index, i32
    %iw = arith.index_cast %i#1 : index to i32
    %a_back, %a_exit = handshake.cond_br %acf#1, %ld_done : none
    %a_data, %ld_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%x_addr) {id = 0 : i32} : (index) -> (i32, none)
    %w_t, %w_f = handshake.cond_br %g#6, %s#4 : none
    %w_loop = dataflow.carry %acf#4, %w_t, %w_back : i1, none, none -> none
    %st_d, %st_a = handshake.store [%i#2] %iw, %w_loop : index, i32
    %w_back, %w_exit = handshake.cond_br %acf#5, %st_done : none
    %st_done = handshake.extmemory[ld = 0, st = 1] (%a : memref<?xi32>) (%st_d, %st_a) {id = 2 : i32} : (i32, index) -> (none)
    %w_end = handshake.mux %g#7 [%w_f, %w_exit] : i1, none
    handshake.sink %g#8 : i1
    %b_loop = dataflow.carry %acf#2, %b_t, %b_back : i1, none, none -> none
    %bs_d, %bs_a = handshake.store [%i#3] %x, %b_loop : index, i32
    %b_back, %b_exit = handshake.cond_br %acf#3, %b_done : none
    %b_done = handshake.extmemory[ld = 0, st = 1] (%b : memref<?xi32>) (%bs_d, %bs_a) {id = 1 : i32} : (i32, index) -> (none)
    %a_end = handshake.mux %g#4 [%a_f, %a_exit] : i1, none
    %b_end = handshake.mux %g#5 [%b_f, %b_exit] : i1, none
    %done = handshake.join %a_end, %b_end, %w_end : none, none, none
    handshake.return %done : none
  }
}
