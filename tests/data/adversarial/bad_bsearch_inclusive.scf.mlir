// FAULT: binary search with an exclusive hi = n but an inclusive test lo <= hi: mid can reach n (out of bounds),
// and when lo == hi and a[mid] >= key, hi = mid keeps the state unchanged forever.
module {
  func.func @bsearch_inclusive(%a: memref<?xi32>, %n: index, %key: i32) -> index attributes {loom.assume = ["0 <= n && n <= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %0:2 = scf.while (%arg3 = %c0, %arg4 = %n) : (index, index) -> (index, index) {
      %1 = arith.cmpi sle, %arg3, %arg4 : index
      scf.condition(%1) %arg3, %arg4 : index, index
    } do {
    ^bb0(%arg3: index, %arg4: index):
      %1 = arith.subi %arg4, %arg3 : index
      %2 = arith.divui %1, %c2 : index
      %3 = arith.addi %arg3, %2 : index
      %4 = memref.load %a[%3] : memref<?xi32>
      %5 = arith.cmpi slt, %4, %key : i32
      %6:2 = scf.if %5 -> (index, index) {
        %7 = arith.addi %3, %c1 : index
        scf.yield %7, %arg4 : index, index
      } else {
        scf.yield %arg3, %3 : index, index
      }
      scf.yield %6#0, %6#1 : index, index
    }
    return %0#0 : index
  }
}
