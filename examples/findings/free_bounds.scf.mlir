func.func @free_bounds(%a: memref<?xi32>, %lb: index, %ub: index) -> i32 {
  %c3 = arith.constant 3 : index
  %z = arith.constant 0 : i32
  %s = scf.for %i = %lb to %ub step %c3 iter_args(%acc = %z) -> (i32) {
    %v = memref.load %a[%i] : memref<?xi32>
    %n = arith.addi %acc, %v : i32
    scf.yield %n : i32
  }
  return %s : i32
}
