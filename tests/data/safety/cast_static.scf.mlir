// Casts a dynamic buffer to the static 8 elements the kernel unrolls over: dim(a) need not be 8.
func.func @cast8(%a: memref<?xi32>) -> i32 attributes {loom.assume = ["dim(a) >= 8"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %s = memref.cast %a : memref<?xi32> to memref<8xi32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> i32 {
    %v = memref.load %s[%i] : memref<8xi32>
    %u = arith.addi %acc, %v : i32
    scf.yield %u : i32
  }
  return %r : i32
}
