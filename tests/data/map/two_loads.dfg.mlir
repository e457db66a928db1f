// Two software memrefs, one load each: on tagged_ext2.fabric.mlir both share the one tagged interface.
module {
  handshake.func @two_loads(%x: memref<?xi32>, %y: memref<?xi32>, %i: index, %j: index, %go: none, %go2: none, ...)
      -> (i32, i32, none, none) attributes {argNames = ["x", "y", "i", "j", "go", "go2"],
                                            resNames = ["xi", "yj", "xdone", "ydone"]} {
    %vx, %ax = load [%i] %mx#0, %go : index, i32
    %mx:2 = extmemory[ld = 1, st = 0] (%x : memref<?xi32>) (%ax) {id = 0 : i32} : (index) -> (i32, none)
    %vy, %ay = load [%j] %my#0, %go2 : index, i32
    %my:2 = extmemory[ld = 1, st = 0] (%y : memref<?xi32>) (%ay) {id = 1 : i32} : (index) -> (i32, none)
    return %vx, %vy, %mx#1, %my#1 : i32, i32, none, none
  }
}
