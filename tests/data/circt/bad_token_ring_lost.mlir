// token_ring whose ring sends its token back only when x > 0: with x <= 0 this run completes, but the
// buffer is left empty (not re-armed), so the next invocation deadlocks: the ring is refuted.
module {
  handshake.func @once(%x: i32, %go: none, ...) -> (i32, none) attributes {argNames = ["x", "go"], resNames = ["out0", "outCtrl"]} {
    %slot = buffer [1] seq %back {initValues = [0]} : none
    %t:2 = sync %x, %go : i32, none
    %xs:2 = fork [2] %t#0 : i32
    %j = join %slot, %t#1 : none, none
    %f:3 = fork [3] %j : none
    %c = constant %f#0 {value = 1 : i32} : i32
    %zero = constant %f#2 {value = 0 : i32} : i32
    %posv = arith.cmpi sgt, %xs#1, %zero : i32
    %back, %lost = cond_br %posv, %f#1 : none
    sink %lost : none
    %r = arith.addi %xs#0, %c : i32
    %rf:2 = fork [2] %r : i32
    %done = join %rf#0 : i32
    return %rf#1, %done : i32, none
  }
}
