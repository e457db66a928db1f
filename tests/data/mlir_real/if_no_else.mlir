// scf.if without an else region (and one with results), the shapes a ReLU /
// threshold kernel lowers to.
module {
  func.func @relu_count(%arg0: memref<?xf32>, %arg1: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = scf.for %arg2 = %c0 to %arg1 step %c1 iter_args(%arg3 = %c0) -> (index) {
      %1 = memref.load %arg0[%arg2] : memref<?xf32>
      %2 = arith.cmpf ult, %1, %cst : f32
      scf.if %2 {
        memref.store %cst, %arg0[%arg2] : memref<?xf32>
      }
      %3 = scf.if %2 -> (index) {
        %4 = arith.addi %arg3, %c1 : index
        scf.yield %4 : index
      } else {
        scf.yield %arg3 : index
      }
      scf.yield %3 : index
    }
    return %0 : index
  }
}
