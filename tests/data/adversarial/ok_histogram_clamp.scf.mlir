// Histogram with saturating bins: values below 0 go to bin 0, values past the last bin to the last bin.
module {
  func.func @histogram_clamp(%data: memref<?xi32>, %hist: memref<?xi32>) attributes {loom.assume = ["dim(hist) >= 1"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_i32 = arith.constant 1 : i32
    %dim = memref.dim %data, %c0 : memref<?xi32>
    %dim_0 = memref.dim %hist, %c0 : memref<?xi32>
    %0 = arith.subi %dim_0, %c1 : index
    scf.for %arg2 = %c0 to %dim step %c1 {
      %1 = memref.load %data[%arg2] : memref<?xi32>
      %2 = arith.index_cast %1 : i32 to index
      %3 = arith.maxsi %2, %c0 : index
      %4 = arith.minsi %3, %0 : index
      %5 = memref.load %hist[%4] : memref<?xi32>
      %6 = arith.addi %5, %c1_i32 : i32
      memref.store %6, %hist[%4] : memref<?xi32>
    }
    return
  }
}
