// FAULT (division by a value that can be 0): hand-edited mean where the guard on n > 0 was removed: sum / n runs for n = 0.
module {
  handshake.func @mean_unguarded(%a: memref<?xi32>, %n: index {loom.range = [0, 1000000]}, %start_token: none, ...) -> (i32, none) attributes {argNames = ["a", "n", "start_token"], resNames = ["result0", "done_token"], loom.assume = ["n <= dim(a)"]} {
    %c0 = handshake.constant %start_token {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n : index
    %a_ctrl_t, %a_ctrl_f = handshake.cond_br %guard, %start_token : none
    %ctrl_t, %ctrl_f = handshake.cond_br %guard, %start_token : none
    %c0_0 = handshake.constant %ctrl_t {value = 0 : index} : index
    %n_t, %n_f = handshake.cond_br %guard, %n : index
    %c1 = handshake.constant %ctrl_t {value = 1 : index} : index
    %index, %willContinue = dataflow.stream %c0_0, %c1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %afterValue, %afterCond = dataflow.gate %index, %willContinue : index, i1 -> index, i1
    %c0_i32 = handshake.constant %ctrl_t {value = 0 : i32} : i32
    %carry_arg3 = dataflow.carry %willContinue, %c0_i32, %0 : i1, i32, i32 -> i32
    %arg3_t, %arg3_f = handshake.cond_br %willContinue, %carry_arg3 : i32
    %a_loop_ctrl = dataflow.carry %afterCond, %a_ctrl_t, %a_body_done_t : i1, none, none -> none
    %ld_a, %ld_a_addr = handshake.load [%afterValue] %a_data, %a_loop_ctrl : index, i32
    %0 = arith.addi %arg3_t, %ld_a : i32
    %a_body_done_t, %a_body_done_f = handshake.cond_br %afterCond, %a_lddone : none
    %c0_i32_0 = handshake.constant %ctrl_f {value = 0 : i32} : i32
    %arg3 = handshake.mux %guard [%c0_i32_0, %arg3_f] : i1, i32
    %a_done = handshake.mux %guard [%a_ctrl_f, %a_body_done_f] : i1, none
    %2 = arith.index_cast %n : index to i32
    %3 = arith.divsi %arg3, %2 : i32
    %a_data, %a_lddone = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%ld_a_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.sink %n_f : index
    handshake.return %3, %a_done : i32, none
  }
}
