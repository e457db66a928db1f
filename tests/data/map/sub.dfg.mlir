module {
  handshake.func @sub(%a: i32, %b: i32, %c: i32, ...) -> (i32) attributes {argNames = ["a", "b", "c"], resNames = ["d"]} {
    %d = arith.subi %a, %b : i32
    return %d : i32
  }
}
