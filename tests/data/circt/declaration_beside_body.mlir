// An external declaration beside a defined function: the defined one is the entry point.
module {
  handshake.func private @outside(i32, none, ...) -> (i32, none)
  handshake.func @inside(%a: i32, %c: none, ...) -> (i32, none) attributes {argNames = ["a", "c"], resNames = ["out0", "outCtrl"]} {
    return %a, %c : i32, none
  }
}
