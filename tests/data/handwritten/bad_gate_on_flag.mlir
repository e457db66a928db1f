// bad_gate_on_flag: a dataflow.gate whose condition is a function-level flag (one token, not a
// loop's raw condition): on a true flag the gate passes the value on but stays latched
// waiting for a next condition that never comes; on a false flag it emits nothing and the
// return starves. The length calculus has no rule for a gate on a non-loop condition
// (unknown, with the reason); the bounded check refutes.
// verify: refuted bmc
// sim: {"x": 5, "c": true} => residual
// sim: {"x": 5, "c": false} => deadlock
module {
  handshake.func @gate_flag(%x: i32, %c: i1, %start: none, ...) -> (i32, none) attributes {argNames = ["x", "c", "start"], resNames = ["y", "done"]} {
    %v, %vc = dataflow.gate %x, %c : i32, i1 -> i32, i1
    handshake.sink %vc : i1
    handshake.return %v, %start : i32, none
  }
}
