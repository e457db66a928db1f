// Compiled from ok_gcd.scf.mlir: Euclid's loop, the remainder under the b != 0 branch.
module {
  handshake.func @gcd(%a: i32 {loom.range = [0, 1000000]}, %b: i32 {loom.range = [0, 1000000]}, %start_token: none, ...) -> (i32, none) attributes {argNames = ["a", "b", "start_token"], resNames = ["result0", "done_token"]} {
    %carry_arg2 = dataflow.carry %0, %a, %arg3_t : i1, i32, i32 -> i32
    %carry_arg3 = dataflow.carry %0, %b, %1 : i1, i32, i32 -> i32
    %ctrl_w = dataflow.invariant %0, %start_token : i1, none -> none
    %c0_i32 = handshake.constant %ctrl_w {value = 0 : i32} : i32
    %0 = arith.cmpi ne, %carry_arg3, %c0_i32 : i32
    %arg2_t, %arg2_f = handshake.cond_br %0, %carry_arg2 : i32
    %arg3_t, %arg3_f = handshake.cond_br %0, %carry_arg3 : i32
    %1 = arith.remui %arg2_t, %arg3_t : i32
    handshake.sink %arg3_f : i32
    handshake.return %arg2_f, %start_token : i32, none
  }
}
