handshake.func @carry_add(%c: i1, %init: i64, %next: i64, %a: i64, ...) -> (i64) attributes {argNames = ["c", "init", "next", "a"], resNames = ["y"]} {
  %x = dataflow.carry %c, %init, %next : i1, i64, i64 -> i64
  %y = arith.addi %x, %a : i64
  handshake.return %y : i64
}
