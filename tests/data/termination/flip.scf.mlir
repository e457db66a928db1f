// flip: while (x != 0) x = 3 - x -- x = 1 gives 1, 2, 1, 2, ...: a lasso of period 2 (no state is its
// own successor: x = 3 - x has no 64-bit solution). Refuted; x = 3 ends after one iteration.
module {
  func.func @flip(%x0: i64) -> i64 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c3 = arith.constant 3 : i64
    %r:2 = scf.while (%x = %x0, %k = %c0) : (i64, i64) -> (i64, i64) {
      %go = arith.cmpi ne, %x, %c0 : i64
      scf.condition(%go) %x, %k : i64, i64
    } do {
    ^bb0(%x: i64, %k: i64):
      %x1 = arith.subi %c3, %x : i64
      %k1 = arith.addi %k, %c1 : i64
      scf.yield %x1, %k1 : i64, i64
    }
    return %r#1 : i64
  }
}
