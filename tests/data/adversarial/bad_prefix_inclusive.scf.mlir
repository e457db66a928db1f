// FAULT: off-by-one: the prefix-sum loop runs to n inclusive (ub = n + 1) with only n <= dim(a) promised.
module {
  func.func @prefix_inclusive(%a: memref<?xi32>, %out: memref<?xi32>, %n: index) -> i32 attributes {loom.assume = ["0 <= n && n <= 1000", "n <= dim(a) && n <= dim(out)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.addi %n, %c1 : index
    %1 = scf.for %arg3 = %c0 to %0 step %c1 iter_args(%arg4 = %c0_i32) -> (i32) {
      %2 = memref.load %a[%arg3] : memref<?xi32>
      %3 = arith.addi %arg4, %2 : i32
      memref.store %3, %out[%arg3] : memref<?xi32>
      scf.yield %3 : i32
    }
    return %1 : i32
  }
}
