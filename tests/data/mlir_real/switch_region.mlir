// scf.index_switch (what the `switch` of a C front end becomes) and
// scf.execute_region with a single block, as mlir-opt prints them.
module {
  func.func @classify(%arg0: memref<?xi32>, %arg1: index) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %0 = scf.for %arg2 = %c0 to %arg1 step %c1 iter_args(%arg3 = %c0_i32) -> (i32) {
      %1 = memref.load %arg0[%arg2] : memref<?xi32>
      %2 = arith.index_cast %1 : i32 to index
      %3 = scf.index_switch %2 -> i32
      case 0 {
        %c10_i32 = arith.constant 10 : i32
        scf.yield %c10_i32 : i32
      }
      case 2 {
        %5 = arith.muli %1, %1 : i32
        scf.yield %5 : i32
      }
      default {
        %c-1_i32 = arith.constant -1 : i32
        scf.yield %c-1_i32 : i32
      }
      %4 = scf.execute_region -> i32 {
        %5 = arith.addi %arg3, %3 : i32
        scf.yield %5 : i32
      }
      scf.yield %4 : i32
    }
    return %0 : i32
  }
}
