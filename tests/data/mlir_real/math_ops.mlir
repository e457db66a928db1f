// math dialect ops as printed by mlir-opt, with fastmath flags: a softplus-like
// elementwise kernel plus an integer popcount/leading-zero reduction.
module {
  func.func @softplus(%arg0: memref<8xf32>, %arg1: memref<8xf32>, %arg2: memref<8xi32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 1.000000e+00 : f32
    %c0_i32 = arith.constant 0 : i32
    %0 = scf.for %arg3 = %c0 to %c8 step %c1 iter_args(%arg4 = %c0_i32) -> (i32) {
      %1 = memref.load %arg0[%arg3] : memref<8xf32>
      %2 = math.absf %1 : f32
      %3 = arith.negf %2 : f32
      %4 = math.exp %3 fastmath<afn> : f32
      %5 = math.log1p %4 : f32
      %6 = arith.maximumf %1, %cst : f32
      %7 = math.sqrt %6 : f32
      %8 = math.fma %5, %7, %1 : f32
      %9 = math.floor %8 : f32
      %10 = math.powf %9, %cst : f32
      %11 = math.copysign %10, %1 : f32
      memref.store %11, %arg1[%arg3] : memref<8xf32>
      %12 = memref.load %arg2[%arg3] : memref<8xi32>
      %13 = math.ctpop %12 : i32
      %14 = math.ctlz %12 : i32
      %15 = math.absi %12 : i32
      %16 = arith.addi %13, %14 : i32
      %17 = arith.maxsi %16, %15 : i32
      %18 = arith.addi %arg4, %17 : i32
      scf.yield %18 : i32
    }
    return %0 : i32
  }
}
