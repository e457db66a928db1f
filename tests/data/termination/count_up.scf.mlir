// count_up: while (i < n && m < cap) { i += 1; m += 3 } -- a conjunction of two signed comparisons.
// Ranked by n - i (the first comparison; the step +1 comes from the body): len.L0.terminates proved.
module {
  func.func @count_up(%n: i32, %cap: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %r:2 = scf.while (%i = %c0, %m = %c0) : (i32, i32) -> (i32, i32) {
      %a = arith.cmpi slt, %i, %n : i32
      %b = arith.cmpi slt, %m, %cap : i32
      %go = arith.andi %a, %b : i1
      scf.condition(%go) %i, %m : i32, i32
    } do {
    ^bb0(%i: i32, %m: i32):
      %i1 = arith.addi %i, %c1 : i32
      %m1 = arith.addi %m, %c3 : i32
      scf.yield %i1, %m1 : i32, i32
    }
    return %r#1 : i32
  }
}
