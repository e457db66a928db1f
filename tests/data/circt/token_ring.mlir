// One task at a time, CIRCT style (cf. integration_test buffer_init_none): a none buffer primed with one
// token is joined with the start token, and the join's output goes back to re-arm it. The calculus
// types the ring (idiom.<buffer>.ring): its join fires once per run, and the ring returns one token.
module {
  handshake.func @once(%x: i32, %go: none, ...) -> (i32, none) attributes {argNames = ["x", "go"], resNames = ["out0", "outCtrl"]} {
    %slot = buffer [1] seq %f#1 {initValues = [0]} : none
    %t:2 = sync %x, %go : i32, none
    %j = join %slot, %t#1 : none, none
    %f:2 = fork [2] %j : none
    %c = constant %f#0 {value = 1 : i32} : i32
    %r = arith.addi %t#0, %c : i32
    %rf:2 = fork [2] %r : i32
    %done = join %rf#0 : i32
    return %rf#1, %done : i32, none
  }
}
