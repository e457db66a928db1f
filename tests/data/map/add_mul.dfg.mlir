module {
  handshake.func @f(%a: i32, %b: i32, %c: i32, ...) -> (i32) attributes {argNames = ["a", "b", "c"], resNames = ["r"]} {
    %s = arith.addi %a, %b : i32
    %p = arith.muli %s, %c : i32
    return %p : i32
  }
}
