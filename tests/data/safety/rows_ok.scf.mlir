// Views a flat buffer of exactly rows * 4 elements as rows of 4 and sums each row: the correct twin.
func.func @rows(%a: memref<?xi32>, %out: memref<?xi32>, %rows: index) attributes {loom.assume = ["0 <= rows <= dim(out)", "4 * rows == dim(a)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %m = memref.expand_shape %a [[0, 1]] output_shape [%rows, 4] : memref<?xi32> into memref<?x4xi32>
  scf.for %i = %c0 to %rows step %c1 {
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%t = %z) -> i32 {
      %v = memref.load %m[%i, %j] : memref<?x4xi32>
      %u = arith.addi %t, %v : i32
      scf.yield %u : i32
    }
    memref.store %s, %out[%i] : memref<?xi32>
  }
  return
}
