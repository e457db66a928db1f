// Compiled from ok_prefix_sum.scf.mlir: prefix sum with a running total, loads and stores on two domains.
module {
  handshake.func @prefix_sum(%a: memref<?xi32>, %out: memref<?xi32>, %n: index, %start_token: none, ...) -> (i32, none) attributes {argNames = ["a", "out", "n", "start_token"], resNames = ["result0", "done_token"], loom.assume = ["n <= dim(a) && n <= dim(out)"]} {
    %c0 = handshake.constant %start_token {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n : index
    %a_ctrl_t, %a_ctrl_f = handshake.cond_br %guard, %start_token : none
    %out_ctrl_t, %out_ctrl_f = handshake.cond_br %guard, %start_token : none
    %ctrl_t, %ctrl_f = handshake.cond_br %guard, %start_token : none
    %c0_0 = handshake.constant %ctrl_t {value = 0 : index} : index
    %n_t, %n_f = handshake.cond_br %guard, %n : index
    %c1 = handshake.constant %ctrl_t {value = 1 : index} : index
    %index, %willContinue = dataflow.stream %c0_0, %c1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %afterValue, %afterCond = dataflow.gate %index, %willContinue : index, i1 -> index, i1
    %c0_i32 = handshake.constant %ctrl_t {value = 0 : i32} : i32
    %carry_arg4 = dataflow.carry %willContinue, %c0_i32, %0 : i1, i32, i32 -> i32
    %arg4_t, %arg4_f = handshake.cond_br %willContinue, %carry_arg4 : i32
    %a_loop_ctrl = dataflow.carry %afterCond, %a_ctrl_t, %a_body_done_t : i1, none, none -> none
    %out_loop_ctrl = dataflow.carry %afterCond, %out_ctrl_t, %out_body_done_t : i1, none, none -> none
    %ld_a, %ld_a_addr = handshake.load [%afterValue] %a_data, %a_loop_ctrl : index, i32
    %0 = arith.addi %arg4_t, %ld_a : i32
    %st_out_data, %st_out_addr = handshake.store [%afterValue] %0, %out_loop_ctrl : index, i32
    %a_body_done_t, %a_body_done_f = handshake.cond_br %afterCond, %a_lddone : none
    %out_body_done_t, %out_body_done_f = handshake.cond_br %afterCond, %out_stdone : none
    %c0_i32_0 = handshake.constant %ctrl_f {value = 0 : i32} : i32
    %arg4 = handshake.mux %guard [%c0_i32_0, %arg4_f] : i1, i32
    %a_done = handshake.mux %guard [%a_ctrl_f, %a_body_done_f] : i1, none
    %out_done = handshake.mux %guard [%out_ctrl_f, %out_body_done_f] : i1, none
    %done = handshake.join %a_done, %out_done : none, none
    %a_data, %a_lddone = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%ld_a_addr) {id = 0 : i32} : (index) -> (i32, none)
    %out_stdone = handshake.extmemory[ld = 0, st = 1] (%out : memref<?xi32>) (%st_out_data, %st_out_addr) {id = 1 : i32} : (i32, index) -> none
    handshake.sink %n_f : index
    handshake.return %arg4, %done : i32, none
  }
}
