// c[i] = a[i] + b[i]: three memrefs, for mapping onto fewer memory interfaces than memrefs (shared by tag range).
module {
  func.func @vadd3(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xi32>, %n: index) attributes {loom.assume = ["n <= dim(a) && n <= dim(b) && n <= dim(c)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %a[%i] : memref<?xi32>
      %y = memref.load %b[%i] : memref<?xi32>
      %s = arith.addi %x, %y : i32
      memref.store %s, %c[%i] : memref<?xi32>
    }
    return
  }
}
