// memref ops as a front end lowering a tiled kernel emits them: strided and
// affine-map layouts, subview, reinterpret_cast, cast, alloca with alignment,
// alloc/dealloc, a global with get_global, assume_alignment.
#map = affine_map<(d0, d1)[s0] -> (d0 * 8 + s0 + d1)>
#map1 = affine_map<(d0) -> (d0 + 1)>
module {
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> {alignment = 64 : i64}
  memref.global "private" @scratch : memref<4xf32> = uninitialized
  func.func @tile(%arg0: memref<4x8xf32>, %arg1: memref<4x?xf32, strided<[?, 1], offset: ?>>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %cst = arith.constant 0.000000e+00 : f32
    memref.assume_alignment %arg0, 16 : memref<4x8xf32>
    %0 = memref.get_global @__constant_4xf32 : memref<4xf32>
    %1 = memref.get_global @scratch : memref<4xf32>
    %subview = memref.subview %arg0[1, 1] [2, 4] [1, 2] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 2], offset: 9>>
    %reinterpret_cast = memref.reinterpret_cast %arg0 to offset: [4], sizes: [7], strides: [4] : memref<4x8xf32> to memref<7xf32, strided<[4], offset: 4>>
    %cast = memref.cast %arg1 : memref<4x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    %alloca = memref.alloca() {alignment = 64 : i64} : memref<4xf32>
    %alloc = memref.alloc() : memref<2x4xf32>
    %2 = scf.for %arg2 = %c0 to %c4 step %c1 iter_args(%arg3 = %cst) -> (f32) {
      %3 = memref.load %0[%arg2] : memref<4xf32>
      %4 = memref.load %reinterpret_cast[%arg2] : memref<7xf32, strided<[4], offset: 4>>
      %5 = memref.load %cast[%arg2, %c1] : memref<?x?xf32, strided<[?, 1], offset: ?>>
      %6 = arith.mulf %3, %4 : f32
      %7 = arith.addf %6, %5 : f32
      memref.store %7, %alloca[%arg2] : memref<4xf32>
      memref.store %7, %1[%arg2] : memref<4xf32>
      %8 = arith.addf %arg3, %7 : f32
      scf.yield %8 : f32
    }
    scf.for %arg2 = %c0 to %c2 step %c1 {
      scf.for %arg3 = %c0 to %c4 step %c1 {
        %3 = memref.load %subview[%arg2, %arg3] : memref<2x4xf32, strided<[8, 2], offset: 9>>
        %4 = memref.load %alloca[%arg3] : memref<4xf32>
        %5 = arith.subf %3, %4 : f32
        memref.store %5, %alloc[%arg2, %arg3] : memref<2x4xf32>
        %6 = memref.load %alloc[%arg2, %arg3] : memref<2x4xf32>
        memref.store %6, %subview[%arg2, %arg3] : memref<2x4xf32, strided<[8, 2], offset: 9>>
      }
    }
    memref.dealloc %alloc : memref<2x4xf32>
    return %2 : f32
  }
}
