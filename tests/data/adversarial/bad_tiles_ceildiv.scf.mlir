// FAULT: tile count ceildiv(n, t) with a tile size t that the caller may pass as 0.
module {
  func.func @tiles(%a: memref<?xf32>, %out: memref<?xf32>, %t: index {loom.range = [0, 64]}) attributes {loom.assume = ["dim(out) >= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %dim = memref.dim %a, %c0 : memref<?xf32>
    %0 = arith.ceildivsi %dim, %t : index
    scf.for %arg3 = %c0 to %0 step %c1 {
      %1 = arith.muli %arg3, %t : index
      %2 = arith.addi %1, %t : index
      %3 = arith.minsi %2, %dim : index
      %4 = scf.for %arg4 = %1 to %3 step %c1 iter_args(%arg5 = %cst) -> (f32) {
        %5 = memref.load %a[%arg4] : memref<?xf32>
        %6 = arith.addf %arg5, %5 : f32
        scf.yield %6 : f32
      }
      memref.store %4, %out[%arg3] : memref<?xf32>
    }
    return
  }
}
