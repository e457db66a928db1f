// A two-level nest of fixed trip counts (2 x 3) with a read-modify-write: a[3i + j] += 1.
module {
  func.func @nest2x3(%a: memref<6xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %one = arith.constant 1 : i32
    scf.for %i = %c0 to %c2 step %c1 {
      %base = arith.muli %i, %c3 : index
      scf.for %j = %c0 to %c3 step %c1 {
        %k = arith.addi %base, %j : index
        %v = memref.load %a[%k] : memref<6xi32>
        %w = arith.addi %v, %one : i32
        memref.store %w, %a[%k] : memref<6xi32>
      }
    }
    return
  }
}
