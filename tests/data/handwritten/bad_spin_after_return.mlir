// bad_spin_after_return: the start token goes to the return and, through a fork, into a
// handshake.merge that feeds itself back: the return fires, but the network never quiesces (a
// livelock after the return, which no loop activation bounds). The simulator stops at the return and
// finds the circulating token left over.
// verify: refuted bmc.livelock
// sim: {"x": 3} => residual
module {
  handshake.func @spin_after(%x: i32, %start: none, ...) -> (i32, none) attributes {argNames = ["x", "start"], resNames = ["y", "done"]} {
    %s:2 = handshake.fork [2] %start : none
    %m = handshake.merge %s#1, %fb : none
    %fb, %out = handshake.fork [2] %m : none
    handshake.sink %out : none
    handshake.return %x, %s#0 : i32, none
  }
}
