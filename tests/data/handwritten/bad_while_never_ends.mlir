// bad_while_never_ends: ok_while_halving with the condition x != 0 turned into x >= 0 (and an
// arithmetic shift): from any x >= 0 the loop reaches x = 0, where 0 >= 0 holds and 0 >> 1 = 0,
// so it never ends. The length calculus finds the fixed point: with x = 0 the first iteration
// feeds back exactly its seed (the step counter, which changes, decides nothing).
// verify: refuted len.L0.terminates
// sim: {"x": 0} => error RT_SIM_STEP_LIMIT
// sim: {"x": 37} => error RT_SIM_STEP_LIMIT
// sim: {"x": -1} => completed [0]
module {
  handshake.func @halving(%x: i64, %start: none, ...) -> (i64, none) attributes {argNames = ["x", "start"], resNames = ["bits", "done"]} {
    %s:2 = handshake.fork [2] %start : none
    %zero = handshake.constant %s#0 {value = 0 : i64} : i64
    %xs = dataflow.carry %go#0, %x, %x_next : i1, i64, i64 -> i64
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
