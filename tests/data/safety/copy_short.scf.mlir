// Copies a into an output buffer that may be longer: memref.copy needs equal shapes, so a run stops.
func.func @copy_out(%a: memref<?xi32>, %b: memref<?xi32>) attributes {loom.assume = ["dim(a) <= dim(b)"]} {
  memref.copy %a, %b : memref<?xi32> to memref<?xi32>
  return
}
