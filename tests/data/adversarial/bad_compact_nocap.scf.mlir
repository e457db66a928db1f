// FAULT: compaction that forgets the capacity test: more than dim(out) positive inputs write past the end of out.
module {
  func.func @compact_nocap(%a: memref<?xi32>, %out: memref<?xi32>, %n: index) -> index attributes {loom.assume = ["n <= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %0:2 = scf.while (%arg3 = %c0, %arg4 = %c0) : (index, index) -> (index, index) {
      %1 = arith.cmpi slt, %arg3, %n : index
      scf.condition(%1) %arg3, %arg4 : index, index
    } do {
    ^bb0(%arg3: index, %arg4: index):
      %1 = memref.load %a[%arg3] : memref<?xi32>
      %2 = arith.cmpi sgt, %1, %c0_i32 : i32
      %3 = scf.if %2 -> (index) {
        memref.store %1, %out[%arg4] : memref<?xi32>
        %5 = arith.addi %arg4, %c1 : index
        scf.yield %5 : index
      } else {
        scf.yield %arg4 : index
      }
      %4 = arith.addi %arg3, %c1 : index
      scf.yield %4, %3 : index, index
    }
    return %0#1 : index
  }
}
