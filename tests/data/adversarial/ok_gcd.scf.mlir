// Euclid's algorithm on non-negative i32 inputs; the remainder's divisor is the loop condition's b != 0.
module {
  func.func @gcd(%a: i32 {loom.range = [0, 1000000]}, %b: i32 {loom.range = [0, 1000000]}) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %0:2 = scf.while (%arg2 = %a, %arg3 = %b) : (i32, i32) -> (i32, i32) {
      %1 = arith.cmpi ne, %arg3, %c0_i32 : i32
      scf.condition(%1) %arg2, %arg3 : i32, i32
    } do {
    ^bb0(%arg2: i32, %arg3: i32):
      %1 = arith.remui %arg2, %arg3 : i32
      scf.yield %arg3, %1 : i32, i32
    }
    return %0#0 : i32
  }
}
