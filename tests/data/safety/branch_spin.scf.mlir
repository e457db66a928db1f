// A while loop that never ends, in one branch only: the other branch reaches a[n] with any n.
func.func @k(%a: memref<?xi32>, %c: i1, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.if %c -> (index) {
    %w = scf.while (%i = %c0) : (index) -> index {
      %t = arith.constant true
      scf.condition(%t) %i : index
    } do {
    ^bb0(%i: index):
      %j = arith.addi %i, %c1 : index
      scf.yield %j : index
    }
    scf.yield %w : index
  } else {
    scf.yield %n : index
  }
  %v = memref.load %a[%r] : memref<?xi32>
  return %v : i32
}
