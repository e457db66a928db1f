handshake.func @add64(%a: i64, %b: i64, ...) -> (i64) attributes {argNames = ["a", "b"], resNames = ["y"]} {
  %y = arith.addi %a, %b : i64
  handshake.return %y : i64
}
