// A bufferized elementwise add after --convert-linalg-to-loops: an aligned
// temporary, a 2-D loop nest, then memref.copy into the output argument and a
// dealloc (the shape one-shot-bufferize gives a function that returns a tensor
// through an out-parameter).
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @add(%arg0: memref<2x3xf32>, %arg1: memref<2x3xf32>, %arg2: memref<2x3xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
    scf.for %arg3 = %c0 to %c2 step %c1 {
      scf.for %arg4 = %c0 to %c3 step %c1 {
        %0 = memref.load %arg0[%arg3, %arg4] : memref<2x3xf32>
        %1 = memref.load %arg1[%arg3, %arg4] : memref<2x3xf32>
        %2 = arith.addf %0, %1 : f32
        memref.store %2, %alloc[%arg3, %arg4] : memref<2x3xf32>
      }
    }
    memref.copy %alloc, %arg2 : memref<2x3xf32> to memref<2x3xf32>
    memref.dealloc %alloc : memref<2x3xf32>
    return
  }
}
