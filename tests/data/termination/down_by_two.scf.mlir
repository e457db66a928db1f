// down_by_two: while (x != 0) x -= 2 -- never ends for an odd x (it steps over 0). Refuted by the closed
// recurrence set {x mod 2 == 1}; both simulators hit their step caps on the witness.
module {
  func.func @down_by_two(%x: i64) -> i64 {
    %c0 = arith.constant 0 : i64
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %r:2 = scf.while (%v = %x, %k = %c0) : (i64, i64) -> (i64, i64) {
      %go = arith.cmpi ne, %v, %c0 : i64
      scf.condition(%go) %v, %k : i64, i64
    } do {
    ^bb0(%v: i64, %k: i64):
      %v1 = arith.subi %v, %c2 : i64
      %k1 = arith.addi %k, %c1 : i64
      scf.yield %v1, %k1 : i64, i64
    }
    return %r#1 : i64
  }
}
