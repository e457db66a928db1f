// bad_body_next_cond_raw: ok_body_next_cond with i + 1 computed from the stream's raw index (N+1
// tokens) instead of the gate's body index (N): the comparison with the bound (replayed N times in
// the body) takes N of them and the exit position's i + 1 is left over.
// verify: refuted balance bmc.residual
// twin: ok_body_next_cond.mlir
// sim: {"a": [3, 4, 5], "n": 3, "k": 2} => residual
// sim: {"a": [], "n": 0, "k": 5} => completed [0]
module {
  handshake.func @next_cond(%a: memref<?xi32>, %n: index, %k: i32, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "n", "k", "start"], loom.assume = ["n <= dim(a)"], resNames = ["sum", "done"]} {
    %s:3 = handshake.fork [3] %start : none
    %n2:3 = handshake.fork [3] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n2#0 : index
    %g:7 = handshake.fork [7] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    %mem_t, %mem_f = handshake.cond_br %g#1, %s#2 : none
    %n_t, %n_f = handshake.cond_br %g#2, %n2#1 : index
    %nb_t, %nb_f = handshake.cond_br %g#3, %n2#2 : index
    %k_t, %k_f = handshake.cond_br %g#4, %k : i32
    handshake.sink %n_f : index
    handshake.sink %nb_f : index
    handshake.sink %k_f : i32
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %cf:3 = handshake.fork [3] %cont : i1
    %idx2:2 = handshake.fork [2] %idx : index
    %iv, %ac = dataflow.gate %idx2#0, %cf#0 : index, i1 -> index, i1
        %nb = dataflow.invariant %ac, %nb_t : i1, index -> index
    %one = arith.constant 1 : index
    %ip1 = arith.addi %idx2#1, %one : index
    %last = arith.cmpi slt, %ip1, %nb : index
    %lf:3 = handshake.fork [3] %last : i1
    %kb = dataflow.invariant %lf#0, %k_t : i1, i32 -> i32
    %mctl = dataflow.carry %lf#1, %mem_t, %body_done : i1, none, none -> none
    %v, %v_addr = handshake.load [%iv] %ld_data, %mctl : index, i32
    %kv = arith.muli %v, %kb : i32
    %zero = handshake.constant %ct#2 {value = 0 : i32} : i32
    %acc = dataflow.carry %cf#1, %zero, %next : i1, i32, i32 -> i32
    %acc_t, %acc_f = handshake.cond_br %cf#2, %acc : i32
    %next = arith.addi %acc_t, %kv : i32
    %body_done, %exit_done = handshake.cond_br %lf#2, %ld_done : none
    %zero_f = handshake.constant %ctrl_f {value = 0 : i32} : i32
    %sum = handshake.mux %g#5 [%zero_f, %acc_f] : i1, i32
    %done = handshake.mux %g#6 [%mem_f, %exit_done] : i1, none
    %ld_data, %ld_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%v_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.return %sum, %done : i32, none
  }
}
