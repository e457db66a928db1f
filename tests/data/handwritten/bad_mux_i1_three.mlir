// bad_mux_i1_three: a handshake.mux with an i1 select but three data inputs (wrong select type
// for its arity): an i1 can only pick data 0 or 1, so data 2 could never be consumed. The IR
// verifier rejects it when the file is read: loom verify exits 2 with the located message.
// verify: error CPL_IR_ARITY 11:5
module {
  handshake.func @mux_i1(%c: i1, %start: none, ...) -> (i32, none) attributes {argNames = ["c", "start"], resNames = ["y", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    %d0 = handshake.constant %s#0 {value = 10 : i32} : i32
    %d1 = handshake.constant %s#1 {value = 20 : i32} : i32
    %d2 = handshake.constant %s#2 {value = 30 : i32} : i32
    %y = handshake.mux %c [%d0, %d1, %d2] : i1, i32
    handshake.return %y, %s#3 : i32, none
  }
}
