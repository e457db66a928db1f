// Divides by a loaded value.
func.func @div_loaded(%a: memref<?xi32>, %b: memref<?xi32>, %out: memref<?xi32>, %n: index) attributes {loom.assume = ["n <= dim(a) && n <= dim(b) && n <= dim(out)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %q = arith.divsi %x, %y : i32
    memref.store %q, %out[%i] : memref<?xi32>
  }
  return
}
