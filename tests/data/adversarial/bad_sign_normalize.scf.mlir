// FAULT: divide each sample by a negative scale d in [-4, -1]: INT_MIN / -1 overflows (the divisor is never 0).
module {
  func.func @sign_normalize(%a: memref<?xi32>, %out: memref<?xi32>, %d: i32 {loom.range = [-4, -1]}) attributes {loom.assume = ["dim(out) >= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dim = memref.dim %a, %c0 : memref<?xi32>
    scf.for %arg3 = %c0 to %dim step %c1 {
      %0 = memref.load %a[%arg3] : memref<?xi32>
      %1 = arith.divsi %0, %d : i32
      memref.store %1, %out[%arg3] : memref<?xi32>
    }
    return
  }
}
