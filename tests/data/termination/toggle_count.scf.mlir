// Its carried flag cycles 0, 1, 0, 1 while a counter in memory grows: the carried values repeat but the
// state does not (memory changed), and the loop ends when the counter reaches 6.
func.func @toggle(%m: memref<1xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %six = arith.constant 6 : i32
  %f0 = arith.constant 0 : i32
  %r = scf.while (%f = %f0) : (i32) -> i32 {
    %k = memref.load %m[%c0] : memref<1xi32>
    %more = arith.cmpi slt, %k, %six : i32
    scf.condition(%more) %f : i32
  } do {
  ^bb0(%f: i32):
    %k = memref.load %m[%c0] : memref<1xi32>
    %k1 = arith.addi %k, %one : i32
    memref.store %k1, %m[%c0] : memref<1xi32>
    %g = arith.xori %f, %one : i32
    scf.yield %g : i32
  }
  return %r : i32
}
