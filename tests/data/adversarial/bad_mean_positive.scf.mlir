// FAULT: mean of the positive elements: sum / count with count = 0 when no element is positive.
module {
  func.func @mean_positive(%a: memref<?xi32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %dim = memref.dim %a, %c0 : memref<?xi32>
    %0:2 = scf.for %arg1 = %c0 to %dim step %c1 iter_args(%arg2 = %c0_i32, %arg3 = %c0_i32) -> (i32, i32) {
      %2 = memref.load %a[%arg1] : memref<?xi32>
      %3 = arith.cmpi sgt, %2, %c0_i32 : i32
      %4:2 = scf.if %3 -> (i32, i32) {
        %5 = arith.addi %arg2, %2 : i32
        %6 = arith.addi %arg3, %c1_i32 : i32
        scf.yield %5, %6 : i32, i32
      } else {
        scf.yield %arg2, %arg3 : i32, i32
      }
      scf.yield %4#0, %4#1 : i32, i32
    }
    %1 = arith.divsi %0#0, %0#1 : i32
    return %1 : i32
  }
}
