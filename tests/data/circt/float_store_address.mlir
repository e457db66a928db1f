// A store port whose address is an f32 value: CIRCT's type rules reject it.
module {
  handshake.func @put(%mem: memref<4xi32>, %where: f32, %val: i32, %go: none, ...) -> none attributes {argNames = ["mem", "where", "val", "go"], resNames = ["done"]} {
    %st_done = extmemory[ld = 0, st = 1] (%mem : memref<4xi32>) (%val, %where) {id = 0 : i32} : (i32, f32) -> none
    %all = join %go, %st_done : none, none
    return %all : none
  }
}
