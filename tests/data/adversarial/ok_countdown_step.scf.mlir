// Count how many steps of size s it takes to drain a budget x: while (x > 0) x -= s, with s in [1, 10].
module {
  func.func @countdown_step(%x: i32 {loom.range = [-1000, 1000000]}, %s: i32 {loom.range = [1, 10]}) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %0:2 = scf.while (%arg2 = %x, %arg3 = %c0_i32) : (i32, i32) -> (i32, i32) {
      %1 = arith.cmpi sgt, %arg2, %c0_i32 : i32
      scf.condition(%1) %arg2, %arg3 : i32, i32
    } do {
    ^bb0(%arg2: i32, %arg3: i32):
      %1 = arith.subi %arg2, %s : i32
      %2 = arith.addi %arg3, %c1_i32 : i32
      scf.yield %1, %2 : i32, i32
    }
    return %0#1 : i32
  }
}
