// Initial values are integers (CIRCT stores them as i64); loom refuses them on a float buffer.
module {
  handshake.func @f(%x: f32, %go: none, ...) -> (f32, none) attributes {argNames = ["x", "go"], resNames = ["out0", "outCtrl"]} {
    %b = buffer [1] seq %x {initValues = [1]} : f32
    return %b, %go : f32, none
  }
}
