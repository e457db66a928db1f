// Reverse the low 8 bits of each byte-valued word: r = (r << 1) | ((x >> k) & 1) for k in [0, 8).
module {
  func.func @bitreverse8(%a: memref<?xi32>, %out: memref<?xi32>, %n: index) attributes {loom.assume = ["0 <= n", "n <= dim(a) && n <= dim(out)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    scf.for %arg3 = %c0 to %n step %c1 {
      %0 = memref.load %a[%arg3] : memref<?xi32>
      %1 = scf.for %arg4 = %c0 to %c8 step %c1 iter_args(%arg5 = %c0_i32) -> (i32) {
        %2 = arith.index_cast %arg4 : index to i32
        %3 = arith.shrui %0, %2 : i32
        %4 = arith.andi %3, %c1_i32 : i32
        %5 = arith.shli %arg5, %c1_i32 : i32
        %6 = arith.ori %5, %4 : i32
        scf.yield %6 : i32
      }
      memref.store %1, %out[%arg3] : memref<?xi32>
    }
    return
  }
}
