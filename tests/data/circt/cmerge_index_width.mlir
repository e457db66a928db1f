// A three-way control_merge whose i1 index can name only two inputs.
module {
  handshake.func @pick(%a: none, %b: none, %c: none, ...) -> (i1, none) attributes {argNames = ["a", "b", "c"], resNames = ["out0", "outCtrl"]} {
    %out, %idx = control_merge %a, %b, %c : none, i1
    return %idx, %out : i1, none
  }
}
