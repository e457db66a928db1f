// The trip count is n / k: k may be 0.
func.func @blocks(%a: memref<?xi32>, %n: index, %k: index) -> i32 attributes {loom.assume = ["0 <= n <= dim(a)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %m = arith.divui %n, %k : index
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %z) -> (i32) {
    %v = memref.load %a[%i] : memref<?xi32>
    %t = arith.addi %acc, %v : i32
    scf.yield %t : i32
  }
  return %s : i32
}
