// bad_merge_overlap: a handshake.merge whose two inputs both carry a token in every run (two
// copies of the start token): the merge emits two tokens, the return takes one, the other
// is left over.
// verify: refuted bmc.residual
// sim: {} => residual
module {
  handshake.func @merge_overlap(%start: none, ...) -> none attributes {argNames = ["start"], resNames = ["done"]} {
    %s:2 = handshake.fork [2] %start : none
    %b = handshake.buffer [1] seq %s#1 : none
    %m = handshake.merge %s#0, %b : none
    handshake.return %m : none
  }
}
