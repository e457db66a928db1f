// FAULT: i32 sum with overflow<nsw>: large samples make the signed add wrap, which the flag declares poison.
module {
  func.func @sum_nsw(%a: memref<?xi32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %dim = memref.dim %a, %c0 : memref<?xi32>
    %0 = scf.for %arg1 = %c0 to %dim step %c1 iter_args(%arg2 = %c0_i32) -> (i32) {
      %1 = memref.load %a[%arg1] : memref<?xi32>
      %2 = arith.addi %arg2, %1 overflow<nsw> : i32
      scf.yield %2 : i32
    }
    return %0 : i32
  }
}
