// bad_while_exit_swapped: ok_while_halving with the two outputs of the counter's exit
// handshake.cond_br swapped: the loop feeds back the exit value and returns the value of
// the first true iteration. With x = 0 the carry gets a feedback it never asks for and the
// return starves; with x != 0 the return gets the first count and the loop is left stuck.
// verify: refuted balance.return bmc.deadlock
// sim: {"x": 0} => deadlock
// sim: {"x": 37} => residual
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
    %gov = arith.cmpi ne, %xf#0, %c0 : i64
    %go:6 = handshake.fork [6] %gov : i1
    %x_t, %x_f = handshake.cond_br %go#3, %xf#1 : i64
    %cnt_f, %cnt_t = handshake.cond_br %go#4, %cnt : i64
    %ctl_t, %ctl_f = handshake.cond_br %go#5, %ctl2#1 : none
    %bt:2 = handshake.fork [2] %ctl_t : none
    %one = handshake.constant %bt#0 {value = 1 : i64} : i64
    %one_b = handshake.constant %bt#1 {value = 1 : i64} : i64
    %x_next = arith.shrui %x_t, %one : i64
    %cnt_next = arith.addi %cnt_t, %one_b : i64
    handshake.sink %x_f : i64
    handshake.return %cnt_f, %ctl_f : i64, none
  }
}
