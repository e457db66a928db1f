// Skip leading zeros with a bounded while loop, then copy the tail: the for loop starts at the while loop's exit value.
module {
  func.func @skip_then_tail(%a: memref<?xi32>, %out: memref<?xi32>) -> index attributes {loom.assume = ["dim(out) >= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %false = arith.constant false
    %dim = memref.dim %a, %c0 : memref<?xi32>
    %0 = scf.while (%arg2 = %c0) : (index) -> index {
      %1 = arith.cmpi slt, %arg2, %dim : index
      %2 = scf.if %1 -> (i1) {
        %3 = memref.load %a[%arg2] : memref<?xi32>
        %4 = arith.cmpi eq, %3, %c0_i32 : i32
        scf.yield %4 : i1
      } else {
        scf.yield %false : i1
      }
      scf.condition(%2) %arg2 : index
    } do {
    ^bb0(%arg2: index):
      %1 = arith.addi %arg2, %c1 : index
      scf.yield %1 : index
    }
    scf.for %arg2 = %0 to %dim step %c1 {
      %1 = memref.load %a[%arg2] : memref<?xi32>
      memref.store %1, %out[%arg2] : memref<?xi32>
    }
    return %0 : index
  }
}
