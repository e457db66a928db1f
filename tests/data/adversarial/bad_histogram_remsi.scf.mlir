// FAULT: histogram bin = data[i] remsi nbins: a negative sample gives a negative remainder, i.e. an out-of-bounds bin.
module {
  func.func @histogram_remsi(%data: memref<?xi32>, %hist: memref<?xi32>) attributes {loom.assume = ["dim(hist) >= 1"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_i32 = arith.constant 1 : i32
    %dim = memref.dim %data, %c0 : memref<?xi32>
    %dim_0 = memref.dim %hist, %c0 : memref<?xi32>
    scf.for %arg2 = %c0 to %dim step %c1 {
      %0 = memref.load %data[%arg2] : memref<?xi32>
      %1 = arith.index_cast %0 : i32 to index
      %2 = arith.remsi %1, %dim_0 : index
      %3 = memref.load %hist[%2] : memref<?xi32>
      %4 = arith.addi %3, %c1_i32 : i32
      memref.store %4, %hist[%2] : memref<?xi32>
    }
    return
  }
}
