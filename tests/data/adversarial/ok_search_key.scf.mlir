// Early-exit linear search over the first n elements: the loop condition short-circuits the load with scf.if.
module {
  func.func @search_key(%a: memref<?xf32>, %n: index, %key: f32) -> index attributes {loom.assume = ["n <= dim(a)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %false = arith.constant false
    %0 = scf.while (%arg3 = %c0) : (index) -> index {
      %1 = arith.cmpi slt, %arg3, %n : index
      %2 = scf.if %1 -> (i1) {
        %3 = memref.load %a[%arg3] : memref<?xf32>
        %4 = arith.cmpf une, %3, %key : f32
        scf.yield %4 : i1
      } else {
        scf.yield %false : i1
      }
      scf.condition(%2) %arg3 : index
    } do {
    ^bb0(%arg3: index):
      %1 = arith.addi %arg3, %c1 : index
      scf.yield %1 : index
    }
    return %0 : index
  }
}
