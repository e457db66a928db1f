// ok_cmerge_count_up: a handshake.control_merge loop counting i = 0, 1, 2, ... while i >= 0
// (signed 64-bit): it ends only when i wraps, after 2^63 iterations. Every iteration is concrete
// and no dataflow loop op bounds it, so the BMC explorer cuts the run at its firing cap; the BMC
// obligations are unknown and name that cap (they used to be "proved"). The increment's constant is
// fired by the back edge (a constant fired by the header's raw control would leave a token at the exit,
// which the calculus refutes now that it types the control_merge loop header as a carry).
// verify: unknown bmc balance
// sim: {"n": 1} => error RT_SIM_STEP_LIMIT
module {
  handshake.func @count_up(%n: i64, %start: none, ...) -> (i64, none) attributes {argNames = ["n", "start"], resNames = ["i", "done"]} {
    %s:2 = handshake.fork [2] %start : none
    %zero = handshake.constant %s#0 {value = 0 : i64} : i64
    %ctl, %idx = handshake.control_merge %s#1, %back : none, index
    %ctl2:2 = handshake.fork [2] %ctl : none
    %iv = handshake.mux %idx [%zero, %inext] : index, i64
    %ivf:3 = handshake.fork [3] %iv : i64
    %c0 = handshake.constant %ctl2#0 {value = 0 : i64} : i64
    %gov = arith.cmpi sge, %ivf#0, %c0 : i64
    %go:2 = handshake.fork [2] %gov : i1
    %i_t, %i_f = handshake.cond_br %go#0, %ivf#1 : i64
    %c_t, %c_f = handshake.cond_br %go#1, %ctl2#1 : none
    %ct:2 = handshake.fork [2] %c_t : none
    %c1 = handshake.constant %ct#0 {value = 1 : i64} : i64
    %inext = arith.addi %i_t, %c1 : i64
    %back = handshake.br %ct#1 : none
    handshake.sink %ivf#2 : i64
    %nn = arith.addi %i_f, %n : i64
    handshake.return %nn, %c_f : i64, none
  }
}
