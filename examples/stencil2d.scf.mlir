// 5-point stencil on the interior of a 2D grid: out = (4*c + n + s + w + e) / 8 (signed
// division rounding toward zero). Grids with fewer than 3 rows or columns run zero times.
module {
  func.func @stencil2d(%in: memref<?x?xi32>, %out: memref<?x?xi32>) attributes {loom.assume = ["dim(out, 0) >= dim(in, 0) && dim(out, 1) >= dim(in, 1)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : i32
    %c8 = arith.constant 8 : i32
    %rows = memref.dim %in, %c0 : memref<?x?xi32>
    %cols = memref.dim %in, %c1 : memref<?x?xi32>
    %rend = arith.subi %rows, %c1 : index
    %cend = arith.subi %cols, %c1 : index
    scf.for %i = %c1 to %rend step %c1 {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      scf.for %j = %c1 to %cend step %c1 {
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %c = memref.load %in[%i, %j] : memref<?x?xi32>
        %n = memref.load %in[%im, %j] : memref<?x?xi32>
        %s = memref.load %in[%ip, %j] : memref<?x?xi32>
        %w = memref.load %in[%i, %jm] : memref<?x?xi32>
        %e = memref.load %in[%i, %jp] : memref<?x?xi32>
        %c4x = arith.muli %c, %c4 : i32
        %t0 = arith.addi %c4x, %n : i32
        %t1 = arith.addi %t0, %s : i32
        %t2 = arith.addi %t1, %w : i32
        %t3 = arith.addi %t2, %e : i32
        %avg = arith.divsi %t3, %c8 : i32
        memref.store %avg, %out[%i, %j] : memref<?x?xi32>
      }
    }
    return
  }
}
