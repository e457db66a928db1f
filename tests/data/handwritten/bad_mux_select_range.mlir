// bad_mux_select_range: wrong mux arity for its select: sel = x & 3 (0..3) drives a two-input
// index-select handshake.mux, as if sel were 0 or 1; the data inputs are split by sel < 1.
// For sel >= 2 the select is out of range: a runtime error (RT_HANDSHAKE_MUX_SELECT_RANGE).
// verify: refuted balance
// sim: {"x": 2} => error RT_HANDSHAKE_MUX_SELECT_RANGE
// sim: {"x": 1} => completed [20]
// sim: {"x": 4} => completed [10]
module {
  handshake.func @mux_range(%x: index, %start: none, ...) -> (i32, none) attributes {argNames = ["x", "start"], resNames = ["y", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    %c3 = handshake.constant %s#0 {value = 3 : index} : index
    %selv = arith.andi %x, %c3 : index
    %sel:2 = handshake.fork [2] %selv : index
    %c1 = handshake.constant %s#1 {value = 1 : index} : index
    %low = arith.cmpi ult, %sel#0, %c1 : index
    %k_t, %k_f = handshake.cond_br %low, %s#2 : none
    %d0 = handshake.constant %k_t {value = 10 : i32} : i32
    %d1 = handshake.constant %k_f {value = 20 : i32} : i32
    %y = handshake.mux %sel#1 [%d0, %d1] : index, i32
    handshake.return %y, %s#3 : i32, none
  }
}
