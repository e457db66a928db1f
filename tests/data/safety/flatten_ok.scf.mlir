// Collapses all four columns of the first n rows into one flat dimension: contiguous, the correct twin.
func.func @flat(%m: memref<?x4xi32>, %n: index) -> i32 attributes {loom.assume = ["0 <= n <= dim(m)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %cols = memref.subview %m[0, 0] [%n, 4] [1, 1] : memref<?x4xi32> to memref<?x4xi32, strided<[4, 1]>>
  %f = memref.collapse_shape %cols [[0, 1]] : memref<?x4xi32, strided<[4, 1]>> into memref<?xi32, strided<[1]>>
  %len = memref.dim %f, %c0 : memref<?xi32, strided<[1]>>
  %r = scf.for %i = %c0 to %len step %c1 iter_args(%s = %z) -> i32 {
    %v = memref.load %f[%i] : memref<?xi32, strided<[1]>>
    %u = arith.addi %s, %v : i32
    scf.yield %u : i32
  }
  return %r : i32
}
