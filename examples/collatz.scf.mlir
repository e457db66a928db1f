// Collatz trajectory of n: an scf.while whose trip count depends on the data, with an
// scf.if choosing the next value. Returns (steps to reach 1, largest value reached).
// n = 0 or 1 runs the loop body zero times.
module {
  func.func @collatz(%n: i64) -> (i64, i64) {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c3 = arith.constant 3 : i64
    %r:3 = scf.while (%x = %n, %steps = %c0, %peak = %n) : (i64, i64, i64) -> (i64, i64, i64) {
      %go = arith.cmpi ugt, %x, %c1 : i64
      scf.condition(%go) %x, %steps, %peak : i64, i64, i64
    } do {
    ^bb0(%x: i64, %steps: i64, %peak: i64):
      %bit = arith.andi %x, %c1 : i64
      %odd = arith.cmpi ne, %bit, %c0 : i64
      %next = scf.if %odd -> (i64) {
        %t = arith.muli %x, %c3 : i64
        %u = arith.addi %t, %c1 : i64
        scf.yield %u : i64
      } else {
        %h = arith.shrui %x, %c1 : i64
        scf.yield %h : i64
      }
      %s = arith.addi %steps, %c1 : i64
      %p = arith.maxui %peak, %next : i64
      scf.yield %next, %s, %p : i64, i64, i64
    }
    return %r#1, %r#2 : i64, i64
  }
}
