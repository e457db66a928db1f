// ok_while_guarded_fixpoint: the never-ending loop of bad_while_never_ends (while x >= 0:
// x = x >> 1) placed under a guard x < 0, so it is only ever entered with a negative x and
// runs zero times (its fixed point x = 0 is unreachable). Must not be refuted: the fixed-point
// search takes the loop's activation condition into account.
// verify: proved
// sim: {"x": -5} => completed [0]
// sim: {"x": 5} => completed [7]
module {
  handshake.func @halving(%x_arg: i64, %start: none, ...) -> (i64, none) attributes {argNames = ["x", "start"], resNames = ["bits", "done"]} {
    %s0:3 = handshake.fork [3] %start : none
    %xin:2 = handshake.fork [2] %x_arg : i64
    %gz = handshake.constant %s0#0 {value = 0 : i64} : i64
    %negv = arith.cmpi slt, %xin#0, %gz : i64
    %neg:3 = handshake.fork [3] %negv : i1
    %s_t, %s_f = handshake.cond_br %neg#0, %s0#1 : none
    %x, %x_f0 = handshake.cond_br %neg#1, %xin#1 : i64
    %s:2 = handshake.fork [2] %s_t : none
    handshake.sink %x_f0 : i64
    %seven = handshake.constant %s_f {value = 7 : i64} : i64
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
    %res = handshake.mux %neg#2 [%seven, %cnt_f] : i1, i64
    handshake.sink %ctl_f : none
    handshake.return %res, %s0#2 : i64, none
  }
}
