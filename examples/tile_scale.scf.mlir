// Scale a strided 2x3 tile of a 6x8 matrix in place through memref.subview, then write a
// marker through a flat memref.reinterpret_cast of the same matrix: both views alias
// the argument, so every store must show up in the argument's final contents.
module {
  func.func @tile_scale(%m: memref<6x8xf32>, %row: index, %col: index, %s: f32) attributes {loom.assume = ["0 <= row <= 4 && 0 <= col <= 3"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c47 = arith.constant 47 : index
    %tile = memref.subview %m[%row, %col] [2, 3] [1, 2] : memref<6x8xf32> to memref<2x3xf32, strided<[8, 2], offset: ?>>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %v = memref.load %tile[%i, %j] : memref<2x3xf32, strided<[8, 2], offset: ?>>
        %w = arith.mulf %v, %s : f32
        memref.store %w, %tile[%i, %j] : memref<2x3xf32, strided<[8, 2], offset: ?>>
      }
    }
    %flat = memref.reinterpret_cast %m to offset: [0], sizes: [48], strides: [1] : memref<6x8xf32> to memref<48xf32>
    memref.store %s, %flat[%c47] : memref<48xf32>
    return
  }
}
