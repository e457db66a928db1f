// FAULT: walk even positions with i != n instead of i < n: an odd n is skipped over and the loop never ends.
module {
  func.func @even_walk(%n: index {loom.range = [0, 64]}) -> index {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %0:2 = scf.while (%arg1 = %c0, %arg2 = %c0) : (index, index) -> (index, index) {
      %1 = arith.cmpi ne, %arg1, %n : index
      scf.condition(%1) %arg1, %arg2 : index, index
    } do {
    ^bb0(%arg1: index, %arg2: index):
      %1 = arith.addi %arg1, %c2 : index
      %2 = arith.addi %arg2, %c1 : index
      scf.yield %1, %2 : index, index
    }
    return %0#1 : index
  }
}
