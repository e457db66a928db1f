func.func @bad(%a: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  return %s : i32
}
