// Pairwise sums with a step-2 loop: out[i/2] = a[i] + a[i+1] for even i with i + 1 < n.
module {
  func.func @pairsum(%a: memref<?xf32>, %out: memref<?xf32>, %n: index) attributes {loom.assume = ["0 <= n && n <= dim(a)", "n <= dim(out)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %0 = arith.subi %n, %c1 : index
    scf.for %arg3 = %c0 to %0 step %c2 {
      %1 = memref.load %a[%arg3] : memref<?xf32>
      %2 = arith.addi %arg3, %c1 : index
      %3 = memref.load %a[%2] : memref<?xf32>
      %4 = arith.addf %1, %3 : f32
      %5 = arith.divui %arg3, %c2 : index
      memref.store %4, %out[%5] : memref<?xf32>
    }
    return
  }
}
