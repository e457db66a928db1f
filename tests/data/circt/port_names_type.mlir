// resNames must hold strings.
module {
  handshake.func @pass(%x: i32, %go: none, ...) -> (i32, none) attributes {argNames = ["x", "go"], resNames = [0 : i32, "outCtrl"]} {
    return %x, %go : i32, none
  }
}
