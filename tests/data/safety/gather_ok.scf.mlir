// A gather whose indices are assumed in range: the correct twin.
func.func @gather(%a: memref<?xf32>, %idx: memref<?xindex>, %out: memref<?xf32>, %n: index) attributes {loom.assume = ["n <= dim(idx) && n <= dim(out)", "0 <= idx[*] < dim(a)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %j = memref.load %idx[%i] : memref<?xindex>
    %v = memref.load %a[%j] : memref<?xf32>
    memref.store %v, %out[%i] : memref<?xf32>
  }
  return
}
