// FAULT (dropped done token, RAW race): the hist loop feeds back the load's done instead of the store's and sinks the store's done: iteration k+1 may read a bin before iteration k's increment lands.
module {
  handshake.func @histogram_clamp(%data: memref<?xi32>, %hist: memref<?xi32>, %start_token: none, ...) -> none attributes {argNames = ["data", "hist", "start_token"], resNames = ["done_token"], loom.assume = ["dim(hist) >= 1"]} {
    %c0 = handshake.constant %start_token {value = 0 : index} : index
    %dim = memref.dim %data, %c0 : memref<?xi32>
    %dim_0 = memref.dim %hist, %c0 : memref<?xi32>
    %c1 = handshake.constant %start_token {value = 1 : index} : index
    %0 = arith.subi %dim_0, %c1 : index
    %guard = arith.cmpi slt, %c0, %dim : index
    %data_ctrl_t, %data_ctrl_f = handshake.cond_br %guard, %start_token : none
    %hist_ctrl_t, %hist_ctrl_f = handshake.cond_br %guard, %start_token : none
    %ctrl_t, %ctrl_f = handshake.cond_br %guard, %start_token : none
    %c0_0 = handshake.constant %ctrl_t {value = 0 : index} : index
    %dim_t, %dim_f = handshake.cond_br %guard, %dim : index
    %c1_0 = handshake.constant %ctrl_t {value = 1 : index} : index
    %index, %willContinue = dataflow.stream %c0_0, %c1_0, %dim_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %afterValue, %afterCond = dataflow.gate %index, %willContinue : index, i1 -> index, i1
    %data_loop_ctrl = dataflow.carry %afterCond, %data_ctrl_t, %data_body_done_t : i1, none, none -> none
    %hist_loop_ctrl = dataflow.carry %afterCond, %hist_ctrl_t, %hist_body_done_t : i1, none, none -> none
    %ld_data, %ld_data_addr = handshake.load [%afterValue] %data_data, %data_loop_ctrl : index, i32
    %1 = arith.index_cast %ld_data : i32 to index
    %ctrl_inv = dataflow.invariant %afterCond, %ctrl_t : i1, none -> none
    %c0_1 = handshake.constant %ctrl_inv {value = 0 : index} : index
    %2 = arith.maxsi %1, %c0_1 : index
    %v_t, %v_f = handshake.cond_br %guard, %0 : index
    %v_inv = dataflow.invariant %afterCond, %v_t : i1, index -> index
    %3 = arith.minsi %2, %v_inv : index
    %ld_hist, %ld_hist_addr = handshake.load [%3] %hist_data, %hist_loop_ctrl : index, i32
    %c1_i32 = handshake.constant %ctrl_inv {value = 1 : i32} : i32
    %4 = arith.addi %ld_hist, %c1_i32 : i32
    %st_hist_data, %st_hist_addr = handshake.store [%3] %4, %hist_lddone : index, i32
    %data_body_done_t, %data_body_done_f = handshake.cond_br %afterCond, %data_lddone : none
    %hist_body_done_t, %hist_body_done_f = handshake.cond_br %afterCond, %hist_lddone : none
    handshake.sink %hist_stdone : none
    %data_done = handshake.mux %guard [%data_ctrl_f, %data_body_done_f] : i1, none
    %hist_done = handshake.mux %guard [%hist_ctrl_f, %hist_body_done_f] : i1, none
    %done = handshake.join %data_done, %hist_done : none, none
    %data_data, %data_lddone = handshake.extmemory[ld = 1, st = 0] (%data : memref<?xi32>) (%ld_data_addr) {id = 0 : i32} : (index) -> (i32, none)
    %hist_data, %hist_stdone, %hist_lddone = handshake.extmemory[ld = 1, st = 1] (%hist : memref<?xi32>) (%st_hist_data, %st_hist_addr, %ld_hist_addr) {id = 1 : i32} : (i32, index, index) -> (i32, none, none)
    handshake.sink %ctrl_f : none
    handshake.sink %dim_f : index
    handshake.sink %v_f : index
    handshake.return %done : none
  }
}
