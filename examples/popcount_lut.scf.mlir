// Population count of every i32 element through a constant 16-entry lookup table held in
// a memref.global: eight nibble lookups per element, summed in an iter_arg.
module {
  memref.global "private" constant @nibble_bits : memref<16xi32> = dense<[0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4]>
  func.func @popcount_lut(%v: memref<?xi32>, %out: memref<?xi32>) attributes {loom.assume = ["dim(out) >= dim(v)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c4_i32 = arith.constant 4 : i32
    %c15_i32 = arith.constant 15 : i32
    %zero = arith.constant 0 : i32
    %lut = memref.get_global @nibble_bits : memref<16xi32>
    %n = memref.dim %v, %c0 : memref<?xi32>
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %v[%i] : memref<?xi32>
      %cnt = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i32) {
        %k32 = arith.index_cast %k : index to i32
        %sh = arith.muli %k32, %c4_i32 : i32
        %y = arith.shrui %x, %sh : i32
        %nib = arith.andi %y, %c15_i32 : i32
        %idx = arith.index_castui %nib : i32 to index
        %bits = memref.load %lut[%idx] : memref<16xi32>
        %s = arith.addi %acc, %bits : i32
        scf.yield %s : i32
      }
      memref.store %cnt, %out[%i] : memref<?xi32>
    }
    return
  }
}
