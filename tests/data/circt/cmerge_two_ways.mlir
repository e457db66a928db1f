// A two-way control_merge with an i1 index (wide enough): the first ready input wins, index 0.
module {
  handshake.func @pick(%a: i32, %b: i32, ...) -> (i32, i1) attributes {argNames = ["a", "b"], resNames = ["out0", "which"]} {
    %out, %idx = control_merge %a, %b : i32, i1
    return %out, %idx : i32, i1
  }
}
