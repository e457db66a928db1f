// scf.for over i32 induction variables, signed and unsigned (unsignedCmp), as
// Polygeist emits them for `for (unsigned i = lo; i < hi; i += 2)`. (A step
// read from an argument could be 0, which MLIR leaves undefined: the verifier
// refutes the stream's precondition for such a loop, as it should.)
module {
  func.func @sum_u(%arg0: memref<?xi32>, %arg1: i32, %arg2: i32, %arg3: i32) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %0 = scf.for unsigned %arg4 = %arg1 to %arg2 step %c2_i32 iter_args(%arg5 = %c0_i32) -> (i32)  : i32 {
      %2 = arith.index_castui %arg4 : i32 to index
      %3 = memref.load %arg0[%2] : memref<?xi32>
      %4 = arith.addi %arg5, %3 : i32
      scf.yield %4 : i32
    }
    %c1_i32 = arith.constant 1 : i32
    %1 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %0) -> (i32)  : i32 {
      %2 = arith.muli %arg4, %arg4 : i32
      %3 = arith.addi %arg5, %2 : i32
      scf.yield %3 : i32
    }
    return %1 : i32
  }
}
