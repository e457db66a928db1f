// ne_up: while (i != n) i += 1 over i32 -- always ends (it wraps if n < 0). Ranked by (n - i) mod 2^32.
module {
  func.func @ne_up(%n: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.while (%i = %c0) : (i32) -> i32 {
      %go = arith.cmpi ne, %i, %n : i32
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%i: i32):
      %i1 = arith.addi %i, %c1 : i32
      scf.yield %i1 : i32
    }
    return %r : i32
  }
}
