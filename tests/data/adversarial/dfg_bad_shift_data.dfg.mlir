// FAULT (shift by a data value): compiled from bad_shift_by_data.scf.mlir: the shift amount is loaded from memory unchecked.
module {
  handshake.func @shift_by_data(%w: i32, %sh: memref<?xi32>, %out: memref<?xi32>, %start_token: none, ...) -> none attributes {argNames = ["w", "sh", "out", "start_token"], resNames = ["done_token"], loom.assume = ["dim(out) >= dim(sh)"]} {
    %c0 = handshake.constant %start_token {value = 0 : index} : index
    %dim = memref.dim %sh, %c0 : memref<?xi32>
    %guard = arith.cmpi slt, %c0, %dim : index
    %sh_ctrl_t, %sh_ctrl_f = handshake.cond_br %guard, %start_token : none
    %out_ctrl_t, %out_ctrl_f = handshake.cond_br %guard, %start_token : none
    %ctrl_t, %ctrl_f = handshake.cond_br %guard, %start_token : none
    %c0_0 = handshake.constant %ctrl_t {value = 0 : index} : index
    %dim_t, %dim_f = handshake.cond_br %guard, %dim : index
    %c1 = handshake.constant %ctrl_t {value = 1 : index} : index
    %index, %willContinue = dataflow.stream %c0_0, %c1, %dim_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %afterValue, %afterCond = dataflow.gate %index, %willContinue : index, i1 -> index, i1
    %sh_loop_ctrl = dataflow.carry %afterCond, %sh_ctrl_t, %sh_body_done_t : i1, none, none -> none
    %out_loop_ctrl = dataflow.carry %afterCond, %out_ctrl_t, %out_body_done_t : i1, none, none -> none
    %ld_sh, %ld_sh_addr = handshake.load [%afterValue] %sh_data, %sh_loop_ctrl : index, i32
    %w_t, %w_f = handshake.cond_br %guard, %w : i32
    %w_inv = dataflow.invariant %afterCond, %w_t : i1, i32 -> i32
    %0 = arith.shrui %w_inv, %ld_sh : i32
    %ctrl_inv = dataflow.invariant %afterCond, %ctrl_t : i1, none -> none
    %c15_i32 = handshake.constant %ctrl_inv {value = 15 : i32} : i32
    %1 = arith.andi %0, %c15_i32 : i32
    %st_out_data, %st_out_addr = handshake.store [%afterValue] %1, %out_loop_ctrl : index, i32
    %sh_body_done_t, %sh_body_done_f = handshake.cond_br %afterCond, %sh_lddone : none
    %out_body_done_t, %out_body_done_f = handshake.cond_br %afterCond, %out_stdone : none
    %sh_done = handshake.mux %guard [%sh_ctrl_f, %sh_body_done_f] : i1, none
    %out_done = handshake.mux %guard [%out_ctrl_f, %out_body_done_f] : i1, none
    %done = handshake.join %sh_done, %out_done : none, none
    %sh_data, %sh_lddone = handshake.extmemory[ld = 1, st = 0] (%sh : memref<?xi32>) (%ld_sh_addr) {id = 0 : i32} : (index) -> (i32, none)
    %out_stdone = handshake.extmemory[ld = 0, st = 1] (%out : memref<?xi32>) (%st_out_data, %st_out_addr) {id = 1 : i32} : (i32, index) -> none
    handshake.sink %ctrl_f : none
    handshake.sink %dim_f : index
    handshake.sink %w_f : i32
    handshake.return %done : none
  }
}
