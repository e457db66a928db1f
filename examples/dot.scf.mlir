// Dot product of two f32 vectors: a reduction carried in an iter_arg, returned as a scalar.
module {
  func.func @dot(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) -> f32 attributes {loom.assume = ["n <= dim(x) && n <= dim(y)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.000000e+00 : f32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %xv, %yv : f32
      %next = arith.addf %acc, %p : f32
      scf.yield %next : f32
    }
    return %sum : f32
  }
}
