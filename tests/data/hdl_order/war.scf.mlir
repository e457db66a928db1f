func.func @war(%a: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = arith.addi %x, %x : i32
    %iw = arith.index_cast %i : index to i32
    memref.store %iw, %a[%i] : memref<?xi32>
  }
  return
}
