// q[i] = a[idx[i]] / d[i]: a division by a loaded value, and a load whose index is loaded data (it may
// leave a). Both are safety obligations of loom verify, and monitors of the RTL with the same IDs.
module {
  func.func @safediv(%a: memref<?xi32>, %idx: memref<?xindex>, %d: memref<?xi32>, %q: memref<?xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %q, %c0 : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {
      %j = memref.load %idx[%i] : memref<?xindex>
      %x = memref.load %a[%j] : memref<?xi32>
      %y = memref.load %d[%i] : memref<?xi32>
      %r = arith.divsi %x, %y : i32
      memref.store %r, %q[%i] : memref<?xi32>
    }
    return
  }
}
