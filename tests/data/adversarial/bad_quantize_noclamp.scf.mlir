// FAULT: quantize to i8 without clamping: a large sample (or NaN) makes fptosi poison.
module {
  func.func @quantize_noclamp(%x: memref<?xf32>, %q: memref<?xi8>, %scale: f32) attributes {loom.assume = ["dim(q) >= dim(x)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dim = memref.dim %x, %c0 : memref<?xf32>
    scf.for %arg3 = %c0 to %dim step %c1 {
      %0 = memref.load %x[%arg3] : memref<?xf32>
      %1 = arith.mulf %0, %scale : f32
      %2 = arith.fptosi %1 : f32 to i8
      memref.store %2, %q[%arg3] : memref<?xi8>
    }
    return
  }
}
