// bad_invariant_on_raw: ok_rar_join with the loop invariant n replayed on the raw stream
// condition (N+1 tokens) instead of after_cond (N): the body-local subtraction consumes only
// N of them, one token of n is left over per activation.
// verify: refuted balance bmc.residual
// sim: {"a": [1, 2, 3, 4], "b": [0, 0, 0, 0], "n": 4} => residual
// sim: {"a": [], "b": [], "n": 0} => completed [] b=[]
module {
  handshake.func @rar_join(%a: memref<?xi32>, %b: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["a", "b", "n", "start"], resNames = ["done"]} {
    %s:4 = handshake.fork [4] %start : none
    %nn:3 = handshake.fork [3] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %nn#0 : index
    %g:8 = handshake.fork [8] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    handshake.sink %ctrl_f : none
    %a_t, %a_f = handshake.cond_br %g#1, %s#2 : none
    %b_t, %b_f = handshake.cond_br %g#2, %s#3 : none
    %n_t, %n_f = handshake.cond_br %g#3, %nn#1 : index
    handshake.sink %n_f : index
    %m_t, %m_f = handshake.cond_br %g#4, %nn#2 : index
    handshake.sink %m_f : index
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %craw:2 = handshake.fork [2] %cont : i1
    %iv, %ac = dataflow.gate %idx, %craw#0 : index, i1 -> index, i1
    %acf:6 = handshake.fork [6] %ac : i1
    %i:3 = handshake.fork [3] %iv : index
    %body = dataflow.invariant %acf#0, %ct#2 : i1, none -> none
    handshake.sink %acf#1 : i1
    %m = dataflow.invariant %craw#1, %m_t : i1, index -> index
    %one = handshake.constant %body {value = 1 : index} : index
    %m1 = arith.subi %m, %one : index
    %r = arith.subi %m1, %i#0 : index
    %a_loop = dataflow.carry %acf#2, %a_t, %a_back : i1, none, none -> none
    %al:2 = handshake.fork [2] %a_loop : none
    %x, %x_addr = handshake.load [%i#1] %a_data#0, %al#0 : index, i32
    %y, %y_addr = handshake.load [%r] %a_data#1, %al#1 : index, i32
    %sum = arith.addi %x, %y : i32
    %a_it = handshake.join %a_done#0, %a_done#1 : none, none
    %a_back, %a_exit = handshake.cond_br %acf#3, %a_it : none
    %a_data:2, %a_done:2 = handshake.extmemory[ld = 2, st = 0] (%a : memref<?xi32>) (%x_addr, %y_addr) {id = 0 : i32} : (index, index) -> (i32, i32, none, none)
    handshake.sink %g#5 : i1
    %b_loop = dataflow.carry %acf#5, %b_t, %b_back : i1, none, none -> none
    %b_buf = handshake.buffer [2] fifo %b_loop : none
    %st_d, %st_a = handshake.store [%i#2] %sum, %b_buf : index, i32
    %b_back, %b_exit = handshake.cond_br %acf#4, %b_done : none
    %b_done = handshake.extmemory[ld = 0, st = 1] (%b : memref<?xi32>) (%st_d, %st_a) {id = 1 : i32} : (i32, index) -> (none)
    %a_end = handshake.mux %g#6 [%a_f, %a_exit] : i1, none
    %b_end = handshake.mux %g#7 [%b_f, %b_exit] : i1, none
    %done = handshake.join %a_end, %b_end : none, none
    handshake.return %done : none
  }
}
