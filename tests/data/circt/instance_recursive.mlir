// A handshake.func that instantiates itself: no finite circuit.
module {
  handshake.func @loop(%a: i32, %ctrl: none, ...) -> (i32, none) attributes {argNames = ["a", "ctrl"], resNames = ["out0", "outCtrl"]} {
    %r, %d = handshake.instance @loop(%a, %ctrl) : (i32, none) -> (i32, none)
    return %r, %d : i32, none
  }
}
