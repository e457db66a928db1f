// Linear search: index of the first element equal to key, or n when absent. An scf.while
// that runs its body zero times when the vector is empty or a[0] == key.
module {
  func.func @find_first(%a: memref<?xi32>, %key: i32) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %false = arith.constant false
    %n = memref.dim %a, %c0 : memref<?xi32>
    %r = scf.while (%i = %c0) : (index) -> index {
      %inb = arith.cmpi ult, %i, %n : index
      %cont = scf.if %inb -> (i1) {
        %v = memref.load %a[%i] : memref<?xi32>
        %ne = arith.cmpi ne, %v, %key : i32
        scf.yield %ne : i1
      } else {
        scf.yield %false : i1
      }
      scf.condition(%cont) %i : index
    } do {
    ^bb0(%i: index):
      %next = arith.addi %i, %c1 : index
      scf.yield %next : index
    }
    return %r : index
  }
}
