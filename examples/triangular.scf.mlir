// Lower-triangular matrix-vector product y = L x: the inner loop's upper bound is the
// outer induction variable plus one, so the iteration space is a triangle.
module {
  func.func @triangular(%L: memref<?x?xi32>, %x: memref<?xi32>, %y: memref<?xi32>) attributes {loom.assume = ["dim(L, 0) >= dim(y) && dim(L, 1) >= dim(y) && dim(x) >= dim(y)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %n = memref.dim %y, %c0 : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {
      %ub = arith.addi %i, %c1 : index
      %sum = scf.for %j = %c0 to %ub step %c1 iter_args(%acc = %zero) -> (i32) {
        %l = memref.load %L[%i, %j] : memref<?x?xi32>
        %xv = memref.load %x[%j] : memref<?xi32>
        %p = arith.muli %l, %xv : i32
        %s = arith.addi %acc, %p : i32
        scf.yield %s : i32
      }
      memref.store %sum, %y[%i] : memref<?xi32>
    }
    return
  }
}
