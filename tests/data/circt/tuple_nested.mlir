// Nested tuples with a none element and a float: a tuple argument is taken apart to its leaves, which are
// regrouped into a differently nested tuple, buffered, and returned whole (a control token rides inside).
module {
  handshake.func @regroup(%p: tuple<i8, tuple<f32, none>>, %q: tuple<i1, i16>, %go: none, ...) -> (tuple<tuple<i16, f32>, none, tuple<i1, i8>>, none) attributes {argNames = ["p", "q", "go"], resNames = ["out0", "outCtrl"]} {
    %a, %inner = unpack %p : tuple<i8, tuple<f32, none>>
    %f, %t = unpack %inner : tuple<f32, none>
    %c, %h = unpack %q : tuple<i1, i16>
    %hf = pack %h, %f : tuple<i16, f32>
    %ca = pack %c, %a : tuple<i1, i8>
    %all = pack %hf, %t, %ca : tuple<tuple<i16, f32>, none, tuple<i1, i8>>
    %b = buffer [2] fifo %all : tuple<tuple<i16, f32>, none, tuple<i1, i8>>
    return %b, %go : tuple<tuple<i16, f32>, none, tuple<i1, i8>>, none
  }
}
