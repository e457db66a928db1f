// CIRCT's lowering gives an unused memref argument an extmemory with no ports; the result is 2*x+1.
module {
  handshake.func @twice_plus_one(%scratch: memref<8xi32>, %x: i32, %go: none, ...) -> (i32, none) attributes {argNames = ["scratch", "x", "go"], resNames = ["out0", "outCtrl"]} {
    extmemory[ld = 0, st = 0] (%scratch : memref<8xi32>) () {id = 0 : i32} : () -> ()
    %g:2 = fork [2] %go : none
    %one = constant %g#0 {value = 1 : i32} : i32
    %xs:2 = fork [2] %x : i32
    %double = arith.addi %xs#0, %xs#1 : i32
    %r = arith.addi %double, %one : i32
    return %r, %g#1 : i32, none
  }
}
