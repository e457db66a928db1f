// A helper called with func.call, a private external declaration, and
// ub.poison feeding a select that never picks it. The interpreter runs the
// call; the lowering inlines it (a dataflow graph is one graph).
module {
  func.func private @ext_log(f32) -> f32
  func.func private @scale(%arg0: f32, %arg1: f32) -> f32 {
    %0 = arith.mulf %arg0, %arg1 : f32
    return %0 : f32
  }
  func.func @apply(%arg0: memref<?xf32>, %arg1: index, %arg2: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    %0 = ub.poison : f32
    scf.for %arg3 = %c0 to %arg1 step %c1 {
      %1 = memref.load %arg0[%arg3] : memref<?xf32>
      %2 = func.call @scale(%1, %arg2) : (f32, f32) -> f32
      %3 = arith.select %true, %2, %0 : f32
      memref.store %3, %arg0[%arg3] : memref<?xf32>
    }
    return
  }
}
