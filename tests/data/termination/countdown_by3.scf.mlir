// countdown_by3: while (x > lo) x -= 3 with lo an argument. The candidate x - lo is no ranking function:
// from x = INT64_MIN + 2, lo = INT64_MIN the subtraction wraps to INT64_MAX and the loop runs on for
// about 2^62 more iterations (it does end, after wrapping): assumed, never proved.
module {
  func.func @countdown_by3(%x0: i64, %lo: i64) -> i64 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c3 = arith.constant 3 : i64
    %r:2 = scf.while (%x = %x0, %k = %c0) : (i64, i64) -> (i64, i64) {
      %go = arith.cmpi sgt, %x, %lo : i64
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
