// y[i] = a * x[i] + y[i] for i in [0, n): an element-wise vector kernel over two memrefs.
module {
  func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index) attributes {loom.assume = ["n <= dim(x) && n <= dim(y)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %y[%i] : memref<?xf32>
    }
    return
  }
}
