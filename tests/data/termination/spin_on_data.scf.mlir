// Skips positive elements, but only advances past one: a non-positive a[i] makes the loop spin forever
// (its state -- i and memory -- repeats). No ranking, lasso or recurrence set decides it: the exit depends
// on loaded data. A run that repeats a state refutes it.
func.func @spin(%a: memref<?xi32>, %n: index) -> index attributes {loom.assume = ["0 <= n <= dim(a)"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %r = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%i: index):
    %v = memref.load %a[%i] : memref<?xi32>
    %pos = arith.cmpi sgt, %v, %z : i32
    %next = arith.addi %i, %c1 : index
    %i2 = arith.select %pos, %next, %i : index
    scf.yield %i2 : index
  }
  return %r : index
}
