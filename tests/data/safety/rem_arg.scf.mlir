// Buckets a[i] by a remainder: k may be 0.
func.func @bucket(%a: memref<?xi32>, %out: memref<?xi32>, %k: i32) attributes {loom.assume = ["dim(out) >= dim(a)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %r = arith.remui %x, %k : i32
    memref.store %r, %out[%i] : memref<?xi32>
  }
  return
}
