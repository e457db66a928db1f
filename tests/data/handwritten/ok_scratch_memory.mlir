// ok_scratch_memory: two memory domains in one loop: an internal handshake.memory scratch
// buffer (store scratch[i] = i * i, then load it back: a store -> load chain in one domain) and
// an extmemory output (out[i] = scratch[i] + 1). Each domain has its own ctrl-done carry on
// after_cond; the loop bound is min(n, 8) so the scratch buffer is never overrun.
// verify: proved
// sim: {"out": [0, 0, 0, 0], "n": 4} => completed [] out=[1, 2, 5, 10]
// sim: {"out": [7, 7], "n": 0} => completed [] out=[7, 7]
module {
  handshake.func @scratch(%out: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["out", "n", "start"], resNames = ["done"]} {
    %s:5 = handshake.fork [5] %start : none
    %c8 = handshake.constant %s#0 {value = 8 : index} : index
    %m = arith.minsi %n, %c8 : index
    %mf:2 = handshake.fork [2] %m : index
    %c0 = handshake.constant %s#1 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %mf#0 : index
    %g:6 = handshake.fork [6] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#2 : none
    handshake.sink %ctrl_f : none
    %sc_t, %sc_f = handshake.cond_br %g#1, %s#3 : none
    %o_t, %o_f = handshake.cond_br %g#2, %s#4 : none
    %bound_t, %bound_f = handshake.cond_br %g#3, %mf#1 : index
    handshake.sink %bound_f : index
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %bound_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    %acf:5 = handshake.fork [5] %ac : i1
    %i:4 = handshake.fork [4] %iv : index
    %ob_ctl = dataflow.invariant %acf#0, %ct#2 : i1, none -> none
    %one = handshake.constant %ob_ctl {value = 1 : i32} : i32
    %sc_loop = dataflow.carry %acf#1, %sc_t, %sc_back : i1, none, none -> none
    %iw = arith.index_cast %i#0 : index to i32
    %iw2:2 = handshake.fork [2] %iw : i32
    %sq = arith.muli %iw2#0, %iw2#1 : i32
    %st_d, %st_a = handshake.store [%i#1] %sq, %sc_loop : index, i32
    %v, %v_a = handshake.load [%i#2] %sc_data, %st_done : index, i32
    %w = arith.addi %v, %one : i32
    %sc_back, %sc_exit = handshake.cond_br %acf#2, %ld_done : none
    %sc_data, %st_done, %ld_done = handshake.memory[ld = 1, st = 1] (%st_d, %st_a, %v_a) {id = 0 : i32, lsq = false} : memref<8xi32>, (i32, index, index) -> (i32, none, none)
    %out_loop = dataflow.carry %acf#3, %o_t, %o_back : i1, none, none -> none
    %ow_d, %ow_a = handshake.store [%i#3] %w, %out_loop : index, i32
    %o_back, %o_exit = handshake.cond_br %acf#4, %o_done : none
    %o_done = handshake.extmemory[ld = 0, st = 1] (%out : memref<?xi32>) (%ow_d, %ow_a) {id = 1 : i32} : (i32, index) -> (none)
    %sc_end = handshake.mux %g#4 [%sc_f, %sc_exit] : i1, none
    %o_end = handshake.mux %g#5 [%o_f, %o_exit] : i1, none
    %done = handshake.join %sc_end, %o_end : none, none
    handshake.return %done : none
  }
}
