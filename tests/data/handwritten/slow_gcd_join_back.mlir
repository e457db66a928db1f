// slow_gcd_join_back: bad_gcd_cmerge_zero with its back edge through a one-input handshake.join
// instead of a br: no CIRCT loop idiom applies (the back edge is not a copy of the cond_br's output),
// so nothing types or bounds the loop. The calculus leaves it untyped and the BMC explorer can only
// decide runs up to its time budget: the verdict must come within the budget and be unknown, never
// proved (it never ends for a = 0, which nothing here detects). The time-limit tests use it.
// verify: unknown bmc balance
// budget: 3
// sim: {"a": 12, "b": 18} => completed [6]
// sim: {"a": 35, "b": 21} => completed [7]
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
    %back = handshake.join %c_t : none
    handshake.return %a_f, %c_f : i32, none
  }
}
