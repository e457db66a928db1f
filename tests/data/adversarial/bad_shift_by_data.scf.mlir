// FAULT: unpack fields: out[i] = (w >> sh[i]) & mask where the shift amounts come from memory unchecked (>= 32 is poison).
module {
  func.func @shift_by_data(%w: i32, %sh: memref<?xi32>, %out: memref<?xi32>) attributes {loom.assume = ["dim(out) >= dim(sh)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c15_i32 = arith.constant 15 : i32
    %dim = memref.dim %sh, %c0 : memref<?xi32>
    scf.for %arg3 = %c0 to %dim step %c1 {
      %0 = memref.load %sh[%arg3] : memref<?xi32>
      %1 = arith.shrui %w, %0 : i32
      %2 = arith.andi %1, %c15_i32 : i32
      memref.store %2, %out[%arg3] : memref<?xi32>
    }
    return
  }
}
