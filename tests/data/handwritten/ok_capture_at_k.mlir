// ok_capture_at_k: x = a[k] when 0 <= k < n, else -1, read by a scan: the loop loads a[i] for every
// i < n and keeps the one value whose index equals k (cond_br on i == kb, kb the invariant k) --
// a token captured at one fixed iteration. A function-level mux takes it, selected by
// 0 <= k && k < n, and a constant -1 otherwise. The calculus projects the captured token to the
// loop's activation (at position k - 0 of the unit-step stream) and proves the mux balanced.
// verify: proved
// sim: {"a": [3, 4, 5], "n": 3, "k": 1} => completed [4]
// sim: {"a": [3, 4, 5], "n": 3, "k": 3} => completed [-1]
// sim: {"a": [3, 4, 5], "n": 3, "k": -2} => completed [-1]
// sim: {"a": [], "n": 0, "k": 0} => completed [-1]
module {
  handshake.func @pick(%a: memref<?xi32>, %n: index, %k: index, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "n", "k", "start"], loom.assume = ["n <= dim(a)"], resNames = ["x", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    %n2:3 = handshake.fork [3] %n : index
    %k2:3 = handshake.fork [3] %k : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %c0f:2 = handshake.fork [2] %c0 : index
    %guard = arith.cmpi slt, %c0f#0, %n2#0 : index
    %g:5 = handshake.fork [5] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    handshake.sink %ctrl_f : none
    %mem_t, %mem_f = handshake.cond_br %g#1, %s#2 : none
    %n_t, %n_f = handshake.cond_br %g#2, %n2#1 : index
    %k_t, %k_f = handshake.cond_br %g#3, %k2#0 : index
    handshake.sink %n_f : index
    handshake.sink %k_f : index
    %ct:2 = handshake.fork [2] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    %ivf:2 = handshake.fork [2] %iv : index
    %ac3:3 = handshake.fork [3] %ac : i1
    %kb = dataflow.invariant %ac3#0, %k_t : i1, index -> index
    %hit = arith.cmpi eq, %ivf#0, %kb : index
    %mctl = dataflow.carry %ac3#1, %mem_t, %body_done : i1, none, none -> none
    %v, %v_addr = handshake.load [%ivf#1] %ld_data, %mctl : index, i32
    %got, %miss = handshake.cond_br %hit, %v : i32
    handshake.sink %miss : i32
    %body_done, %exit_done = handshake.cond_br %ac3#2, %ld_done : none
    %ge = arith.cmpi sle, %c0f#1, %k2#1 : index
    %lt = arith.cmpi slt, %k2#2, %n2#2 : index
    %found = arith.andi %ge, %lt : i1
    %fd:2 = handshake.fork [2] %found : i1
    %dflt_t, %dflt_f = handshake.cond_br %fd#0, %s#3 : none
    handshake.sink %dflt_t : none
    %m1 = handshake.constant %dflt_f {value = -1 : i32} : i32
    %x = handshake.mux %fd#1 [%m1, %got] : i1, i32
    %done = handshake.mux %g#4 [%mem_f, %exit_done] : i1, none
    %ld_data, %ld_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%v_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.return %x, %done : i32, none
  }
}
