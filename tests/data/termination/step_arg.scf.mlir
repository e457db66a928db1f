// step_arg: while (i < n) i += s with s an argument -- s = 0 with n > 0 feeds back its seed: refuted
// (fixed point).
module {
  func.func @step_arg(%n: i64, %s: i64) -> i64 {
    %c0 = arith.constant 0 : i64
    %r = scf.while (%i = %c0) : (i64) -> i64 {
      %go = arith.cmpi slt, %i, %n : i64
      scf.condition(%go) %i : i64
    } do {
    ^bb0(%i: i64):
      %i1 = arith.addi %i, %s : i64
      scf.yield %i1 : i64
    }
    return %r : i64
  }
}
