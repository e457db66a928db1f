// war_swapped: war_ok with the chain reversed: st0 takes the iteration's ctrl and ld0 waits for st0's done, so
// the store of a[i] runs before the load the source puts first. The two never overlap (a mutual-exclusion
// monitor holds), but with --source war.scf.mlir Z3 refutes mem.a.order.ld0<st0 (out of program order).
module {
  handshake.func @war(%a: memref<?xi32>, %n: index, %start_token: none, ...) -> none attributes {argNames = ["a", "n", "start_token"], resNames = ["done_token"]} {
    %c0 = handshake.constant %start_token {value = 0 : index} : index loc("war.scf.mlir":2:3)
    %guard = arith.cmpi slt, %c0, %n : index loc("war.scf.mlir":4:3)
    %a_ctrl_t, %a_ctrl_f = handshake.cond_br %guard, %start_token : none loc("war.scf.mlir":4:3)
    %ctrl_t, %ctrl_f = handshake.cond_br %guard, %start_token : none loc("war.scf.mlir":4:3)
    %c0_0 = handshake.constant %ctrl_t {value = 0 : index} : index loc("war.scf.mlir":2:3)
    %n_t, %n_f = handshake.cond_br %guard, %n : index loc("war.scf.mlir":4:3)
    %c1 = handshake.constant %ctrl_t {value = 1 : index} : index loc("war.scf.mlir":3:3)
    %index, %willContinue = dataflow.stream %c0_0, %c1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1) loc("war.scf.mlir":4:3)
    %afterValue, %afterCond = dataflow.gate %index, %willContinue : index, i1 -> index, i1 loc("war.scf.mlir":4:3)
    %a_loop_ctrl = dataflow.carry %afterCond, %a_ctrl_t, %a_body_done_t : i1, none, none -> none loc("war.scf.mlir":4:3)
    %x, %x_addr = handshake.load [%afterValue] %a_data, %a_stdone : index, i32 loc("war.scf.mlir":5:5)
    %iw = arith.index_cast %afterValue : index to i32 loc("war.scf.mlir":7:5)
    %st_a_data, %st_a_addr = handshake.store [%afterValue] %iw, %a_loop_ctrl : index, i32 loc("war.scf.mlir":8:5)
    %a_body_done_t, %a_body_done_f = handshake.cond_br %afterCond, %a_lddone : none loc("war.scf.mlir":4:3)
    %a_done = handshake.mux %guard [%a_ctrl_f, %a_body_done_f] : i1, none loc("war.scf.mlir":4:3)
    %a_data, %a_stdone, %a_lddone = handshake.extmemory[ld = 1, st = 1] (%a : memref<?xi32>) (%st_a_data, %st_a_addr, %x_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none) loc("war.scf.mlir":5:5)
    handshake.sink %ctrl_f : none loc("war.scf.mlir":4:3)
    handshake.sink %n_f : index loc("war.scf.mlir":4:3)
    handshake.sink %x : i32 loc("war.scf.mlir":5:5)
    handshake.return %a_done : none loc("war.scf.mlir":10:3)
  } loc("war.scf.mlir":1:1)
}
