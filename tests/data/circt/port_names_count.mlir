// argNames names three ports but the function has two arguments.
module {
  handshake.func @pass(%x: i32, %go: none, ...) -> (i32, none) attributes {argNames = ["x", "go", "extra"], resNames = ["out0", "outCtrl"]} {
    return %x, %go : i32, none
  }
}
