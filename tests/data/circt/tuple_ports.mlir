// Tuples at the function boundary: a tuple argument is unpacked, its parts swapped and packed again.
module {
  handshake.func @swap(%p: tuple<i32, i1>, %go: none, ...) -> (tuple<i1, i32>, none) attributes {argNames = ["p", "go"], resNames = ["out0", "outCtrl"]} {
    %a, %b = unpack %p : tuple<i32, i1>
    %q = pack %b, %a : tuple<i1, i32>
    return %q, %go : tuple<i1, i32>, none
  }
}
