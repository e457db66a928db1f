// Copies a into an output buffer of the same length: the correct twin.
func.func @copy_out(%a: memref<?xi32>, %b: memref<?xi32>) attributes {loom.assume = ["dim(a) == dim(b)"]} {
  memref.copy %a, %b : memref<?xi32> to memref<?xi32>
  return
}
