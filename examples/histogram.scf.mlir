// Histogram: hist[data[i] mod bins] += 1. The address of the read-modify-write depends on
// the loaded data, so consecutive iterations may touch the same bin.
module {
  func.func @histogram(%data: memref<?xi32>, %hist: memref<?xi32>) attributes {loom.assume = ["dim(hist) >= 1"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %n = memref.dim %data, %c0 : memref<?xi32>
    %bins = memref.dim %hist, %c0 : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {
      %d = memref.load %data[%i] : memref<?xi32>
      %di = arith.index_castui %d : i32 to index
      %b = arith.remui %di, %bins : index
      %old = memref.load %hist[%b] : memref<?xi32>
      %new = arith.addi %old, %one : i32
      memref.store %new, %hist[%b] : memref<?xi32>
    }
    return
  }
}
