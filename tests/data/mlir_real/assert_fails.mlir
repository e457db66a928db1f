// A cf.assert that fails at run time: `loom sim` reports it as a runtime
// error (exit 1) with the assert's message and location.
module {
  func.func @checked_div(%arg0: i32, %arg1: i32) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.cmpi ne, %arg1, %c0_i32 : i32
    cf.assert %0, "division by zero"
    %1 = arith.divsi %arg0, %arg1 : i32
    return %1 : i32
  }
}
