// Integer mean of the first n elements; the division is guarded by n > 0 (n also bounded so n fits i32).
module {
  func.func @mean_guarded(%a: memref<?xi32>, %n: index {loom.range = [0, 1000000]}) -> i32 attributes {loom.assume = ["n <= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %0 = scf.for %arg2 = %c0 to %n step %c1 iter_args(%arg3 = %c0_i32) -> (i32) {
      %3 = memref.load %a[%arg2] : memref<?xi32>
      %4 = arith.addi %arg3, %3 : i32
      scf.yield %4 : i32
    }
    %1 = arith.cmpi sgt, %n, %c0 : index
    %2 = scf.if %1 -> (i32) {
      %3 = arith.index_cast %n : index to i32
      %4 = arith.divsi %0, %3 : i32
      scf.yield %4 : i32
    } else {
      scf.yield %c0_i32 : i32
    }
    return %2 : i32
  }
}
