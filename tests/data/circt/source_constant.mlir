// Constants triggered by a source (as CIRCT's canonicalizer leaves them) and a sync barrier:
// returns (x * 3 + 4, the synced y).
module {
  handshake.func @affine(%x: i32, %y: i32, %go: none, ...) -> (i32, i32, none) attributes {argNames = ["x", "y", "go"], resNames = ["out0", "out1", "outCtrl"]} {
    %s:2 = fork [2] %src : none
    %src = source
    %three = constant %s#0 {value = 3 : i32} : i32
    %four = constant %s#1 {value = 4 : i32} : i32
    %xs, %ys, %gs = sync %x, %y, %go : i32, i32, none
    %m = arith.muli %xs, %three : i32
    %r = arith.addi %m, %four : i32
    return %r, %ys, %gs : i32, i32, none
  }
}
