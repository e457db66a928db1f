// one load a iteration in the recurrence of its memory-order carry: acc = sum of x[i] for i < n
module {
  handshake.func @vsum(%x: memref<?xi32>, %n: index, %start_token: none, ...) -> (i32, none) attributes {argNames = ["x", "n", "start_token"], resNames = ["result0", "done_token"]} {
    %c0 = handshake.constant %start_token {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n : index
    %x_ctrl_t, %x_ctrl_f = handshake.cond_br %guard, %start_token : none
    %ctrl_t, %ctrl_f = handshake.cond_br %guard, %start_token : none
    %c0_0 = handshake.constant %ctrl_t {value = 0 : index} : index
    %n_t, %n_f = handshake.cond_br %guard, %n : index
    %c1 = handshake.constant %ctrl_t {value = 1 : index} : index
    %index, %willContinue = dataflow.stream %c0_0, %c1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %afterValue, %afterCond = dataflow.gate %index, %willContinue : index, i1 -> index, i1
    %zero = handshake.constant %ctrl_t {value = 0 : i32} : i32
    %carry_acc = dataflow.carry %willContinue, %zero, %next : i1, i32, i32 -> i32
    %acc_t, %acc_f = handshake.cond_br %willContinue, %carry_acc : i32
    %x_loop_ctrl = dataflow.carry %afterCond, %x_ctrl_t, %x_body_done_t : i1, none, none -> none
    %xv, %xv_addr = handshake.load [%afterValue] %x_data, %x_loop_ctrl : index, i32
    %next = arith.addi %acc_t, %xv : i32
    %x_body_done_t, %x_body_done_f = handshake.cond_br %afterCond, %x_lddone : none
    %zero_0 = handshake.constant %ctrl_f {value = 0 : i32} : i32
    %acc = handshake.mux %guard [%zero_0, %acc_f] : i1, i32
    %done = handshake.mux %guard [%x_ctrl_f, %x_body_done_f] : i1, none
    %x_data, %x_lddone = handshake.extmemory[ld = 1, st = 0] (%x : memref<?xi32>) (%xv_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.sink %n_f : index
    handshake.return %acc, %done : i32, none
  }
}
