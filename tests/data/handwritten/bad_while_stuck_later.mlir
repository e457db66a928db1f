// bad_while_stuck_later: bad_while_never_ends started from the constant 5 instead of x: the
// loop runs 5, 2, 1, 0, 0, ... -- its fourth iteration (iteration 3) feeds back exactly the
// state it started from, for every argument. The fixed-point search unrolls the loop's
// control state (up to 8 iterations) to find it.
// verify: refuted len.L0.terminates
// sim: {"x": 7} => error RT_SIM_STEP_LIMIT
module {
  handshake.func @halving(%x: i64, %start: none, ...) -> (i64, none) attributes {argNames = ["x", "start"], resNames = ["bits", "done"]} {
    %s:3 = handshake.fork [3] %start : none
    %five = handshake.constant %s#2 {value = 5 : i64} : i64
    handshake.sink %x : i64
    %zero = handshake.constant %s#0 {value = 0 : i64} : i64
    %xs = dataflow.carry %go#0, %five, %x_next : i1, i64, i64 -> i64
    %cnt = dataflow.carry %go#1, %zero, %cnt_next : i1, i64, i64 -> i64
    %ctl = dataflow.invariant %go#2, %s#1 : i1, none -> none
    %ctl2:2 = handshake.fork [2] %ctl : none
    %c0 = handshake.constant %ctl2#0 {value = 0 : i64} : i64
    %xf:2 = handshake.fork [2] %xs : i64
    %gov = arith.cmpi sge, %xf#0, %c0 : i64
    %go:6 = handshake.fork [6] %gov : i1
    %x_t, %x_f = handshake.cond_br %go#3, %xf#1 : i64
    %cnt_t, %cnt_f = handshake.cond_br %go#4, %cnt : i64
    %ctl_t, %ctl_f = handshake.cond_br %go#5, %ctl2#1 : none
    %bt:2 = handshake.fork [2] %ctl_t : none
    %one = handshake.constant %bt#0 {value = 1 : i64} : i64
    %one_b = handshake.constant %bt#1 {value = 1 : i64} : i64
    %x_next = arith.shrsi %x_t, %one : i64
    %cnt_next = arith.addi %cnt_t, %one_b : i64
    handshake.sink %x_f : i64
    handshake.return %cnt_f, %ctl_f : i64, none
  }
}
