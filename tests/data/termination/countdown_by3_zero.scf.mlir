// countdown_by3_zero: while (x > 0) x -= 3 -- a decreasing counter against a constant bound. Ranked by
// x - 0 (no wrap: x > 0 keeps x - 3 above INT64_MIN): proved.
module {
  func.func @countdown_by3_zero(%x0: i64) -> i64 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c3 = arith.constant 3 : i64
    %r:2 = scf.while (%x = %x0, %k = %c0) : (i64, i64) -> (i64, i64) {
      %go = arith.cmpi sgt, %x, %c0 : i64
      scf.condition(%go) %x, %k : i64, i64
    } do {
    ^bb0(%x: i64, %k: i64):
      %x1 = arith.subi %x, %c3 : i64
      %k1 = arith.addi %k, %c1 : i64
      scf.yield %x1, %k1 : i64, i64
    }
    return %r#1 : i64
  }
}
