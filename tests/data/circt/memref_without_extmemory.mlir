// A memref argument that no extmemory wraps: CIRCT's handshake.func verifier rejects it.
module {
  handshake.func @ignore(%buf: memref<4xi32>, %x: i32, %go: none, ...) -> (i32, none) attributes {argNames = ["buf", "x", "go"], resNames = ["out0", "outCtrl"]} {
    return %x, %go : i32, none
  }
}
