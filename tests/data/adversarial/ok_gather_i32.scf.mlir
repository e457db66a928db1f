// Gather through an i32 index table whose entries the caller guarantees to be valid rows of a.
module {
  func.func @gather_i32(%a: memref<?xf32>, %idx: memref<?xi32>, %out: memref<?xf32>) attributes {loom.assume = ["0 <= idx[*] < dim(a)", "dim(out) >= dim(idx)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dim = memref.dim %idx, %c0 : memref<?xi32>
    scf.for %arg3 = %c0 to %dim step %c1 {
      %0 = memref.load %idx[%arg3] : memref<?xi32>
      %1 = arith.index_cast %0 : i32 to index
      %2 = memref.load %a[%1] : memref<?xf32>
      memref.store %2, %out[%arg3] : memref<?xf32>
    }
    return
  }
}
