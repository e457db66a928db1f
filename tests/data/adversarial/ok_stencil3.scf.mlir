// 1-D three-point smoothing stencil on the interior: out[i] = a[i-1] + 2*a[i] + a[i+1], 1 <= i < n-1.
module {
  func.func @stencil3(%a: memref<?xf32>, %out: memref<?xf32>, %n: index) attributes {loom.assume = ["0 <= n", "n <= dim(a)", "n <= dim(out)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 2.000000e+00 : f32
    %0 = arith.subi %n, %c1 : index
    scf.for %arg3 = %c1 to %0 step %c1 {
      %1 = arith.subi %arg3, %c1 : index
      %2 = arith.addi %arg3, %c1 : index
      %3 = memref.load %a[%1] : memref<?xf32>
      %4 = memref.load %a[%arg3] : memref<?xf32>
      %5 = memref.load %a[%2] : memref<?xf32>
      %6 = arith.mulf %4, %cst : f32
      %7 = arith.addf %3, %6 : f32
      %8 = arith.addf %7, %5 : f32
      memref.store %8, %out[%arg3] : memref<?xf32>
    }
    return
  }
}
