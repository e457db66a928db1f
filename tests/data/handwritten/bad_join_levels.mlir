// bad_join_levels: ok_buffer_br_vecadd with the store's ctrl also joined with a function-level
// token (a copy of the start token, one per run) instead of only the per-iteration ctrl: the
// join fires once, the second store starves; when the loop does not run, the start copy is
// left over.
// verify: refuted balance bmc
// sim: {"a": [1, 2, 3], "b": [10, 20, 30], "c": [0, 0, 0], "n": 3} => deadlock
// sim: {"a": [1], "b": [2], "c": [0], "n": 1} => completed [] c=[3]
// sim: {"a": [1], "b": [2], "c": [0], "n": 0} => residual
module {
  handshake.func @vecadd(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["a", "b", "c", "n", "start"], resNames = ["done"]} {
    %s:6 = handshake.fork [6] %start : none
    %n2:2 = handshake.fork [2] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n2#0 : index
    %g:6 = handshake.fork [6] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    %a_t, %a_f = handshake.cond_br %g#1, %s#2 : none
    %b_t, %b_f = handshake.cond_br %g#2, %s#3 : none
    %c_t, %c_f = handshake.cond_br %g#3, %s#4 : none
    %n_t, %n_f = handshake.cond_br %g#4, %n2#1 : index
    %ct:2 = handshake.fork [2] %ctrl_t : none
    %st0 = handshake.constant %ct#0 {value = 0 : index} : index
    %sp1 = handshake.constant %ct#1 {value = 1 : index} : index
    %nb = handshake.buffer [2] fifo %n_t : index
    %idx, %cont = dataflow.stream %st0, %sp1, %nb {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %av, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    %avb = handshake.buffer [1] seq %av : index
    %i:3 = handshake.fork [3] %avb : index
    %acf:6 = handshake.fork [6] %ac : i1
    %a_loop = dataflow.carry %acf#0, %a_t, %a_back : i1, none, none -> none
    %b_loop = dataflow.carry %acf#1, %b_t, %b_back : i1, none, none -> none
    %c_loop = dataflow.carry %acf#2, %c_t, %c_back : i1, none, none -> none
    %a_ctl = handshake.br %a_loop : none
    %b_ctl = handshake.br %b_loop : none
    %c_ctl = handshake.join %c_loop, %s#5 : none, none
    %x, %x_addr = handshake.load [%i#0] %a_data, %a_ctl : index, i32
    %y, %y_addr = handshake.load [%i#1] %b_data, %b_ctl : index, i32
    %xb = handshake.buffer [2] fifo %x : i32
    %sum = arith.addi %xb, %y : i32
    %st_data, %st_addr = handshake.store [%i#2] %sum, %c_ctl : index, i32
    %a_done_b = handshake.buffer [1] seq %a_done : none
    %a_back, %a_exit = handshake.cond_br %acf#3, %a_done_b : none
    %b_back, %b_exit = handshake.cond_br %acf#4, %b_done : none
    %c_done_br = handshake.br %c_done : none
    %c_back, %c_exit = handshake.cond_br %acf#5, %c_done_br : none
    %a_end = handshake.mux %g#5 [%a_f, %a_exit] : i1, none
    %gg:2 = handshake.fork [2] %g#5 : i1
    %b_end = handshake.mux %gg#0 [%b_f, %b_exit] : i1, none
    %c_end = handshake.mux %gg#1 [%c_f, %c_exit] : i1, none
    %done = handshake.join %a_end, %b_end, %c_end : none, none, none
    %a_data, %a_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%x_addr) {id = 0 : i32} : (index) -> (i32, none)
    %b_data, %b_done = handshake.extmemory[ld = 1, st = 0] (%b : memref<?xi32>) (%y_addr) {id = 1 : i32} : (index) -> (i32, none)
    %c_done = handshake.extmemory[ld = 0, st = 1] (%c : memref<?xi32>) (%st_data, %st_addr) {id = 2 : i32} : (i32, index) -> (none)
    handshake.sink %ctrl_f : none
    handshake.sink %n_f : index
    handshake.return %done : none
  }
}
