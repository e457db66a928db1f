// Range of a vector: min and max of i32 elements with arith.minsi / arith.maxsi, two iter_args; returns max - min (as i64, no wrap).
module {
  func.func @minmax(%a: memref<?xi32>) -> i64 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2147483647_i32 = arith.constant 2147483647 : i32
    %c-2147483648_i32 = arith.constant -2147483648 : i32
    %dim = memref.dim %a, %c0 : memref<?xi32>
    %0:2 = scf.for %arg1 = %c0 to %dim step %c1 iter_args(%arg2 = %c2147483647_i32, %arg3 = %c-2147483648_i32) -> (i32, i32) {
      %4 = memref.load %a[%arg1] : memref<?xi32>
      %5 = arith.minsi %arg2, %4 : i32
      %6 = arith.maxsi %arg3, %4 : i32
      scf.yield %5, %6 : i32, i32
    }
    %1 = arith.extsi %0#1 : i32 to i64
    %2 = arith.extsi %0#0 : i32 to i64
    %3 = arith.subi %1, %2 overflow<nsw> : i64
    return %3 : i64
  }
}
