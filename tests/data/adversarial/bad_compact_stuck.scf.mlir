// FAULT: compaction with a capacity where i only advances on a kept element: a non-positive a[i] spins forever.
module {
  func.func @compact_stuck(%a: memref<?xi32>, %out: memref<?xi32>, %n: index, %cap: index) -> index attributes {loom.assume = ["n <= dim(a)", "cap <= dim(out)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %0:2 = scf.while (%arg4 = %c0, %arg5 = %c0) : (index, index) -> (index, index) {
      %1 = arith.cmpi slt, %arg4, %n : index
      %2 = arith.cmpi slt, %arg5, %cap : index
      %3 = arith.andi %1, %2 : i1
      scf.condition(%3) %arg4, %arg5 : index, index
    } do {
    ^bb0(%arg4: index, %arg5: index):
      %1 = memref.load %a[%arg4] : memref<?xi32>
      %2 = arith.cmpi sgt, %1, %c0_i32 : i32
      %3:2 = scf.if %2 -> (index, index) {
        memref.store %1, %out[%arg5] : memref<?xi32>
        %4 = arith.addi %arg5, %c1 : index
        %5 = arith.addi %arg4, %c1 : index
        scf.yield %5, %4 : index, index
      } else {
        scf.yield %arg4, %arg5 : index, index
      }
      scf.yield %3#0, %3#1 : index, index
    }
    return %0#1 : index
  }
}
