// bad_gcd_cmerge_zero: Euclid's gcd by subtraction, CIRCT style (as handshake lowering of cf emits it,
// cf. CIRCT's test-dematerialize gcd): a handshake.control_merge loop header whose index selects
// the entry or back-edge values in handshake.muxes, and an exit whose trip count depends on the
// data (a != b). With a = 0 and b != 0 it never ends (b - 0 = b: the same iteration forever). The
// calculus types the loop header as a carry (function-level entry) and finds that fixed point
// (len.L0.terminates); the BMC explorer can only decide runs up to its time budget: unknown.
// verify: refuted len.L0.terminates
// budget: 3
// sim: {"a": 12, "b": 18} => completed [6]
// sim: {"a": 7, "b": 7} => completed [7]
// sim: {"a": 35, "b": 21} => completed [7]
// sim: {"a": 0, "b": 5} => error RT_SIM_STEP_LIMIT
module {
  handshake.func @gcd(%a: i32, %b: i32, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "b", "start"], resNames = ["g", "done"]} {
    %ctl, %idx = handshake.control_merge %start, %back : none, index
    %idxf:2 = handshake.fork [2] %idx : index
    %av = handshake.mux %idxf#0 [%a, %a_next] : index, i32
    %bv = handshake.mux %idxf#1 [%b, %b_next] : index, i32
    %af:2 = handshake.fork [2] %av : i32
    %bf:2 = handshake.fork [2] %bv : i32
    %nev = arith.cmpi ne, %af#0, %bf#0 : i32
    %ne:3 = handshake.fork [3] %nev : i1
    %a_t, %a_f = handshake.cond_br %ne#0, %af#1 : i32
    %b_t, %b_f = handshake.cond_br %ne#1, %bf#1 : i32
    %c_t, %c_f = handshake.cond_br %ne#2, %ctl : none
    handshake.sink %b_f : i32
    %at:4 = handshake.fork [4] %a_t : i32
    %bt:4 = handshake.fork [4] %b_t : i32
    %gtv = arith.cmpi ugt, %at#0, %bt#0 : i32
    %gt:2 = handshake.fork [2] %gtv : i1
    %amb = arith.subi %at#1, %bt#1 : i32
    %bma = arith.subi %bt#2, %at#2 : i32
    %a_next = arith.select %gt#0, %amb, %at#3 : i32
    %b_next = arith.select %gt#1, %bt#3, %bma : i32
    %back = handshake.br %c_t : none
    handshake.return %a_f, %c_f : i32, none
  }
}
