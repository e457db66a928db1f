func.func @cwar(%a: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %odd = arith.andi %i, %c1 : index
    %even = arith.cmpi eq, %odd, %c0 : index
    scf.if %even {
      %iw = arith.index_cast %i : index to i32
      memref.store %iw, %a[%i] : memref<?xi32>
    }
  }
  return
}
