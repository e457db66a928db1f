// Sums a[1 .. n] through a reinterpret_cast window with n + 1 <= dim(a): the correct twin.
func.func @window(%a: memref<?xi32>, %n: index) -> i32 attributes {loom.assume = ["0 <= n", "n + 1 <= dim(a)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %w = memref.reinterpret_cast %a to offset: [1], sizes: [%n], strides: [1] : memref<?xi32> to memref<?xi32, strided<[1], offset: 1>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> i32 {
    %v = memref.load %w[%i] : memref<?xi32, strided<[1], offset: 1>>
    %u = arith.addi %s, %v : i32
    scf.yield %u : i32
  }
  return %r : i32
}
