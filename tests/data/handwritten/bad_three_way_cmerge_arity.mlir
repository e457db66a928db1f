// bad_three_way_cmerge_arity: ok_three_way whose control_merge rejoins only two of the three
// branch ctrl tokens (the positive one is dropped): for x > 0 the merge never fires, the mux
// gets no select, the return starves and the constant 10 is left over.
// verify: refuted balance bmc.deadlock
// sim: {"x": 9} => deadlock
// sim: {"x": -5} => completed [-10]
module {
  handshake.func @three_way(%x: i32, %start: none, ...) -> (i32, none) attributes {argNames = ["x", "start"], resNames = ["y", "done"]} {
    %s:2 = handshake.fork [2] %start : none
    %xx:2 = handshake.fork [2] %x : i32
    %z0 = handshake.constant %s#0 {value = 0 : i32} : i32
    %negv = arith.cmpi slt, %xx#0, %z0 : i32
    %neg:2 = handshake.fork [2] %negv : i1
    %neg_ctl, %rest_ctl = handshake.cond_br %neg#0, %s#1 : none
    %xn, %xr = handshake.cond_br %neg#1, %xx#1 : i32
    handshake.sink %xn : i32
    %rc:2 = handshake.fork [2] %rest_ctl : none
    %z1 = handshake.constant %rc#0 {value = 0 : i32} : i32
    %zerov = arith.cmpi eq, %xr, %z1 : i32
    %zero_ctl, %pos_ctl = handshake.cond_br %zerov, %rc#1 : none
    %nc:2 = handshake.fork [2] %neg_ctl : none
    %zc:2 = handshake.fork [2] %zero_ctl : none
    %pc:2 = handshake.fork [2] %pos_ctl : none
    %vneg = handshake.constant %nc#0 {value = -10 : i32} : i32
    %vzero = handshake.constant %zc#0 {value = 0 : i32} : i32
    %vpos = handshake.constant %pc#0 {value = 10 : i32} : i32
    handshake.sink %pc#1 : none
    %done, %which = handshake.control_merge %nc#1, %zc#1 : none, index
    %y = handshake.mux %which [%vneg, %vzero, %vpos] : index, i32
    handshake.return %y, %done : i32, none
  }
}
