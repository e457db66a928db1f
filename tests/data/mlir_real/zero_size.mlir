// A zero-size buffer (memref<0xf32>) next to a normal one: the loop over the
// empty buffer never runs. `0xf32` is the dimension 0, not a hex number.
module {
  func.func @sum_both(%arg0: memref<0xf32>, %arg1: memref<4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %cst = arith.constant 0.000000e+00 : f32
    %dim = memref.dim %arg0, %c0 : memref<0xf32>
    %0 = scf.for %arg2 = %c0 to %dim step %c1 iter_args(%arg3 = %cst) -> (f32) {
      %2 = memref.load %arg0[%arg2] : memref<0xf32>
      %3 = arith.addf %arg3, %2 : f32
      scf.yield %3 : f32
    }
    %1 = scf.for %arg2 = %c0 to %c4 step %c1 iter_args(%arg3 = %0) -> (f32) {
      %2 = memref.load %arg1[%arg2] : memref<4xf32>
      %3 = arith.addf %arg3, %2 : f32
      scf.yield %3 : f32
    }
    return %1 : f32
  }
}
