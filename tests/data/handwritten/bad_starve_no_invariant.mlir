// bad_starve_no_invariant: ok_branch_mux with the body's ctrl token taken straight from the
// loop's function-level ctrl (one token per run) instead of a dataflow.invariant replaying it
// per iteration: the constants of the body fire once, so the second iteration starves
// (the pitfall spec-dataflow-compilation warns about; the legacy relu DFG has it).
// verify: refuted balance bmc.deadlock
// sim: {"a": [3, -4, 0, 5], "b": [0, 0, 0, 0], "n": 4} => deadlock
// sim: {"a": [3], "b": [0], "n": 1} => completed [] b=[6]
module {
  handshake.func @branch_mux(%a: memref<?xi32>, %b: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["a", "b", "n", "start"], resNames = ["done"]} {
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
    handshake.sink %acf#0 : i1
    %body = handshake.br %ct#2 : none
    %bf:2 = handshake.fork [2] %body : none
    %a_loop = dataflow.carry %acf#1, %a_t, %a_back : i1, none, none -> none
    %x, %x_addr = handshake.load [%i#0] %a_data, %a_loop : index, i32
    %xf:2 = handshake.fork [2] %x : i32
    %zero = handshake.constant %bf#0 {value = 0 : i32} : i32
    %posv = arith.cmpi sgt, %xf#0, %zero : i32
    %pos:3 = handshake.fork [3] %posv : i1
    %x_t, %x_f = handshake.cond_br %pos#0, %xf#1 : i32
    %k_t, %k_f = handshake.cond_br %pos#1, %bf#1 : none
    %two = handshake.constant %k_t {value = 2 : i32} : i32
    %y_t = arith.muli %x_t, %two : i32
    %z = handshake.constant %k_f {value = 0 : i32} : i32
    %y_f = arith.subi %z, %x_f : i32
    %y = handshake.mux %pos#2 [%y_f, %y_t] : i1, i32
    %b_loop = dataflow.carry %acf#2, %b_t, %b_back : i1, none, none -> none
    %st_d, %st_a = handshake.store [%i#1] %y, %b_loop : index, i32
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
