// Reads a[i + off]: with off = -1 the index wraps below zero at i = 0.
func.func @shifted(%a: memref<?xi32>, %n: index, %off: index) -> i32 attributes {loom.assume = ["0 <= n <= dim(a)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
    %j = arith.addi %i, %off : index
    %v = memref.load %a[%j] : memref<?xi32>
    %t = arith.addi %acc, %v : i32
    scf.yield %t : i32
  }
  return %s : i32
}
