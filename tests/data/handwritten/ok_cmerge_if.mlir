// ok_cmerge_if: a function-level if/else in the CIRCT style: the start token is split by
// handshake.cond_br, the two branch ctrl tokens are rejoined by handshake.control_merge, whose
// index output selects the branch result in an index-select handshake.mux; a second result
// is rejoined by a plain handshake.merge (the two sides never both carry a token).
//   r = x > 0 ? x + 1 : 0 - x;  tag = x > 0 ? 1 : 2
// verify: proved
// sim: {"x": 5} => completed [6, 1]
// sim: {"x": -3} => completed [3, 2]
// sim: {"x": 0} => completed [0, 2]
module {
  handshake.func @cmerge_if(%x: i32, %start: none, ...) -> (i32, i32, none) attributes {argNames = ["x", "start"], resNames = ["r", "tag", "done"]} {
    %s:2 = handshake.fork [2] %start : none
    %xx:2 = handshake.fork [2] %x : i32
    %zero = handshake.constant %s#0 {value = 0 : i32} : i32
    %cv = arith.cmpi sgt, %xx#0, %zero : i32
    %c:2 = handshake.fork [2] %cv : i1
    %ctl_t, %ctl_f = handshake.cond_br %c#0, %s#1 : none
    %x_t, %x_f = handshake.cond_br %c#1, %xx#1 : i32
    %tt:3 = handshake.fork [3] %ctl_t : none
    %ff:3 = handshake.fork [3] %ctl_f : none
    %one = handshake.constant %tt#0 {value = 1 : i32} : i32
    %r_t = arith.addi %x_t, %one : i32
    %z = handshake.constant %ff#0 {value = 0 : i32} : i32
    %r_f = arith.subi %z, %x_f : i32
    %tag_t = handshake.constant %tt#1 {value = 1 : i32} : i32
    %tag_f = handshake.constant %ff#1 {value = 2 : i32} : i32
    %done, %which = handshake.control_merge %ff#2, %tt#2 : none, index
    %r = handshake.mux %which [%r_f, %r_t] : index, i32
    %tag = handshake.merge %tag_t, %tag_f : i32
    handshake.return %r, %tag, %done : i32, i32, none
  }
}
