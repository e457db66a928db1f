// ok_three_way: sign(x) * 10 by a three-way branch: two nested handshake.cond_br split the
// start token into "negative", "zero" and "positive", a three-input handshake.control_merge
// rejoins the three ctrl tokens and its index drives a three-input index-select mux.
// verify: proved
// sim: {"x": -5} => completed [-10]
// sim: {"x": 0} => completed [0]
// sim: {"x": 9} => completed [10]
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
    %done, %which = handshake.control_merge %nc#1, %zc#1, %pc#1 : none, index
    %y = handshake.mux %which [%vneg, %vzero, %vpos] : index, i32
    handshake.return %y, %done : i32, none
  }
}
