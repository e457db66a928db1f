// bad_cycle_deadlock: the done token is a handshake.join of the start token with a fork of
// its own output: a cycle without an initial token, so the join never fires and the return
// waits forever.
// verify: refuted balance.return bmc.deadlock
// sim: {"x": 4} => deadlock
module {
  handshake.func @cycle(%x: i32, %start: none, ...) -> (i32, none) attributes {argNames = ["x", "start"], resNames = ["y", "done"]} {
    %s:2 = handshake.fork [2] %start : none
    %j = handshake.join %s#0, %fb : none, none
    %fb, %out = handshake.fork [2] %j : none
    %one = handshake.constant %s#1 {value = 1 : i32} : i32
    %y = arith.addi %x, %one : i32
    handshake.return %y, %out : i32, none
  }
}
