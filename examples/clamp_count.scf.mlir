// Clamp every element of a signed i32 vector into [lo, hi] in place and count how many
// elements changed: scf.if with results inside a loop, plus a conditional counter.
module {
  func.func @clamp_count(%v: memref<?xi32>, %lo: i32, %hi: i32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %n = memref.dim %v, %c0 : memref<?xi32>
    %count = scf.for %i = %c0 to %n step %c1 iter_args(%cnt = %zero) -> (i32) {
      %x = memref.load %v[%i] : memref<?xi32>
      %below = arith.cmpi slt, %x, %lo : i32
      %above = arith.cmpi sgt, %x, %hi : i32
      %r:2 = scf.if %below -> (i32, i32) {
        scf.yield %lo, %one : i32, i32
      } else {
        %hv = arith.select %above, %hi, %x : i32
        %changed = arith.extui %above : i1 to i32
        scf.yield %hv, %changed : i32, i32
      }
      %out = arith.cmpi ne, %r#1, %zero : i32
      scf.if %out {
        memref.store %r#0, %v[%i] : memref<?xi32>
      }
      %next = arith.addi %cnt, %r#1 : i32
      scf.yield %next : i32
    }
    return %count : i32
  }
}
