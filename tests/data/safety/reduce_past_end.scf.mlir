// A reduction whose bound is dim(a) + 1: reads a[dim(a)] on every input.
func.func @reduce(%a: memref<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %d = memref.dim %a, %c0 : memref<?xi32>
  %n = arith.addi %d, %c1 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
    %v = memref.load %a[%i] : memref<?xi32>
    %t = arith.addi %acc, %v : i32
    scf.yield %t : i32
  }
  return %s : i32
}
