// Quantize floats to i8: scale, clamp to [-128, 127] with minnumf/maxnumf (NaN goes to a bound), then fptosi.
module {
  func.func @quantize(%x: memref<?xf32>, %q: memref<?xi8>, %scale: f32) attributes {loom.assume = ["dim(q) >= dim(x)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant -1.280000e+02 : f32
    %cst_0 = arith.constant 1.270000e+02 : f32
    %dim = memref.dim %x, %c0 : memref<?xf32>
    scf.for %arg3 = %c0 to %dim step %c1 {
      %0 = memref.load %x[%arg3] : memref<?xf32>
      %1 = arith.mulf %0, %scale : f32
      %2 = arith.maxnumf %1, %cst : f32
      %3 = arith.minnumf %2, %cst_0 : f32
      %4 = arith.fptosi %3 : f32 to i8
      memref.store %4, %q[%arg3] : memref<?xi8>
    }
    return
  }
}
