// bad_exit_split_after: ok_exit_test_raw with the accumulator's exit split reading the gate's
// after_cond (N tokens) instead of the computed exit test (N+1): it exits one iteration early
// (the sum misses the last element) and leaves the carry latched, waiting for the last feedback.
// verify: refuted balance bmc.residual
// twin: ok_exit_test_raw.mlir
// sim: {"a": [3, 4, 5], "n": 3} => residual
// sim: {"a": [7], "n": 1} => residual
// sim: {"a": [], "n": 0} => completed [0]
module {
  handshake.func @exit_test(%a: memref<?xi32>, %n: index, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "n", "start"], loom.assume = ["n <= dim(a)"], resNames = ["sum", "done"]} {
    %s:3 = handshake.fork [3] %start : none
    %n2:3 = handshake.fork [3] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n2#0 : index
    %g:6 = handshake.fork [6] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    %mem_t, %mem_f = handshake.cond_br %g#1, %s#2 : none
    %n_t, %n_f = handshake.cond_br %g#2, %n2#1 : index
    %nb_t, %nb_f = handshake.cond_br %g#3, %n2#2 : index
    handshake.sink %n_f : index
    handshake.sink %nb_f : index
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %cf:2 = handshake.fork [2] %cont : i1
    %idx2:2 = handshake.fork [2] %idx : index
    %nb = dataflow.invariant %cf#0, %nb_t : i1, index -> index
    %more = arith.cmpi slt, %idx2#0, %nb : index
    %mf:1 = handshake.fork [1] %more : i1
    %iv, %ac = dataflow.gate %idx2#1, %cf#1 : index, i1 -> index, i1
    %ac2:3 = handshake.fork [3] %ac : i1
    %zero = handshake.constant %ct#2 {value = 0 : i32} : i32
    %acc = dataflow.carry %mf#0, %zero, %next : i1, i32, i32 -> i32
    %acc_t, %acc_f = handshake.cond_br %ac2#2, %acc : i32
    %mctl = dataflow.carry %ac2#0, %mem_t, %body_done : i1, none, none -> none
    %v, %v_addr = handshake.load [%iv] %ld_data, %mctl : index, i32
    %next = arith.addi %acc_t, %v : i32
    %body_done, %exit_done = handshake.cond_br %ac2#1, %ld_done : none
    %zero_f = handshake.constant %ctrl_f {value = 0 : i32} : i32
    %sum = handshake.mux %g#4 [%zero_f, %acc_f] : i1, i32
    %done = handshake.mux %g#5 [%mem_f, %exit_done] : i1, none
    %ld_data, %ld_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%v_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.return %sum, %done : i32, none
  }
}
