// C = A * B for i32 matrices (wrapping arithmetic): three nested loops, the innermost
// carrying the partial sum; the dimensions come from memref.dim on dynamic shapes.
module {
  func.func @matmul(%A: memref<?x?xi32>, %B: memref<?x?xi32>, %C: memref<?x?xi32>) attributes {loom.assume = ["dim(B, 0) >= dim(A, 1) && dim(C, 0) >= dim(A, 0) && dim(C, 1) >= dim(B, 1)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %m = memref.dim %A, %c0 : memref<?x?xi32>
    %k = memref.dim %A, %c1 : memref<?x?xi32>
    %n = memref.dim %B, %c1 : memref<?x?xi32>
    scf.for %i = %c0 to %m step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %sum = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> (i32) {
          %a = memref.load %A[%i, %l] : memref<?x?xi32>
          %b = memref.load %B[%l, %j] : memref<?x?xi32>
          %p = arith.muli %a, %b : i32
          %s = arith.addi %acc, %p : i32
          scf.yield %s : i32
        }
        memref.store %sum, %C[%i, %j] : memref<?x?xi32>
      }
    }
    return
  }
}
