// FAULT: scatter out[idx[i]] = a[i]; the caller only promised non-negative indices, not that they are below dim(out).
module {
  func.func @scatter(%a: memref<?xf32>, %idx: memref<?xi32>, %out: memref<?xf32>) attributes {loom.assume = ["0 <= idx[*]", "dim(idx) >= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dim = memref.dim %a, %c0 : memref<?xf32>
    scf.for %arg3 = %c0 to %dim step %c1 {
      %0 = memref.load %a[%arg3] : memref<?xf32>
      %1 = memref.load %idx[%arg3] : memref<?xi32>
      %2 = arith.index_cast %1 : i32 to index
      memref.store %0, %out[%2] : memref<?xf32>
    }
    return
  }
}
