// One handshake.func instantiated twice by another: (x + y) + (y + y) = 5 + 7 + 7 + 7 for x=5, y=7.
module {
  handshake.func @add(%a: i32, %b: i32, %ctrl: none, ...) -> (i32, none) attributes {argNames = ["a", "b", "ctrl"], resNames = ["sum", "done"]} {
    %s = arith.addi %a, %b : i32
    return %s, %ctrl : i32, none
  }
  handshake.func @top(%x: i32, %y: i32, %go: none, ...) -> (i32, none) attributes {argNames = ["x", "y", "go"], resNames = ["out0", "outCtrl"]} {
    %ys:3 = fork [3] %y : i32
    %g:2 = fork [2] %go : none
    %p, %pd = handshake.instance @add(%x, %ys#0, %g#0) : (i32, i32, none) -> (i32, none)
    %q, %qd = handshake.instance @add(%ys#1, %ys#2, %g#1) : (i32, i32, none) -> (i32, none)
    %r, %rd = handshake.instance @add(%p, %q, %pd) : (i32, i32, none) -> (i32, none)
    %done = join %rd, %qd : none, none
    return %r, %done : i32, none
  }
}
