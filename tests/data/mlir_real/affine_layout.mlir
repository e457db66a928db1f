// Memref layouts written as affine maps (#map aliases, as older front ends
// and --normalize-memrefs inputs print them) and a strided layout with
// dynamic strides on a function argument.
#map = affine_map<(d0, d1) -> (d0 * 4 + d1)>
#map1 = affine_map<(d0)[s0] -> (d0 + s0)>
module {
  func.func @rowsum(%arg0: memref<3x4xf32, #map>, %arg1: memref<3xf32, strided<[?], offset: ?>>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %cst = arith.constant 0.000000e+00 : f32
    scf.for %arg2 = %c0 to %c3 step %c1 {
      %0 = scf.for %arg3 = %c0 to %c4 step %c1 iter_args(%arg4 = %cst) -> (f32) {
        %1 = memref.load %arg0[%arg2, %arg3] : memref<3x4xf32, #map>
        %2 = arith.addf %arg4, %1 : f32
        scf.yield %2 : f32
      }
      memref.store %0, %arg1[%arg2] : memref<3xf32, strided<[?], offset: ?>>
    }
    return
  }
}
