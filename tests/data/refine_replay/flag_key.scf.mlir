// flag_key: b[i] = (a[i] == 1000) for i < n. Its twin flag_key_bad.dfg.mlir (compiled with --debug-info,
// then the constant 1000 changed to 1001 by hand) differs only where an element of a is 1000 or 1001: a
// value bug that no run shows unless the memref is non-empty and holds one of those values.
module {
  func.func @flag_key(%a: memref<?xi32>, %b: memref<?xi32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %key = arith.constant 1000 : i32
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %a[%i] : memref<?xi32>
      %eq = arith.cmpi eq, %v, %key : i32
      %f = arith.extui %eq : i1 to i32
      memref.store %f, %b[%i] : memref<?xi32>
    }
    return
  }
}
