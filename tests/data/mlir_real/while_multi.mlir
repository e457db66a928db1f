// scf.while with several before/after arguments of different types: the
// before region forwards a subset and a computed value (Euclid's gcd with a
// step counter, then a search that exits early).
module {
  func.func @gcd_steps(%arg0: i64, %arg1: i64, %arg2: memref<?xf32>, %arg3: index, %arg4: f32) -> (i64, i32, index) {
    %c0_i64 = arith.constant 0 : i64
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %0:3 = scf.while (%arg5 = %arg0, %arg6 = %arg1, %arg7 = %c0_i32) : (i64, i64, i32) -> (i64, i64, i32) {
      %2 = arith.cmpi ne, %arg6, %c0_i64 : i64
      scf.condition(%2) %arg5, %arg6, %arg7 : i64, i64, i32
    } do {
    ^bb0(%arg5: i64, %arg6: i64, %arg7: i32):
      %2 = arith.remsi %arg5, %arg6 : i64
      %3 = arith.addi %arg7, %c1_i32 : i32
      scf.yield %arg6, %2, %3 : i64, i64, i32
    }
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %true = arith.constant true
    %1:2 = scf.while (%arg5 = %c0, %arg6 = %true) : (index, i1) -> (index, f32) {
      %2 = arith.cmpi slt, %arg5, %arg3 : index
      %3 = arith.andi %2, %arg6 : i1
      %4 = scf.if %2 -> (f32) {
        %5 = memref.load %arg2[%arg5] : memref<?xf32>
        scf.yield %5 : f32
      } else {
        %cst = arith.constant 0.000000e+00 : f32
        scf.yield %cst : f32
      }
      scf.condition(%3) %arg5, %4 : index, f32
    } do {
    ^bb0(%arg5: index, %arg6: f32):
      %2 = arith.cmpf olt, %arg6, %arg4 : f32
      %3 = arith.addi %arg5, %c1 : index
      scf.yield %3, %2 : index, i1
    }
    return %0#0, %0#2, %1#0 : i64, i32, index
  }
}
