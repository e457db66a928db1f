// A tuple carries two values as one token: pack, pass through a buffer, unpack; returns (b, a - b).
module {
  handshake.func @swap_diff(%a: i32, %b: i64, %go: none, ...) -> (i64, i32, none) attributes {argNames = ["a", "b", "go"], resNames = ["first", "second", "outCtrl"]} {
    %t = pack %a, %b : tuple<i32, i64>
    %tb = buffer [2] fifo %t : tuple<i32, i64>
    %x, %y = unpack %tb : tuple<i32, i64>
    %ys:2 = fork [2] %y : i64
    %yt = arith.trunci %ys#1 : i64 to i32
    %d = arith.subi %x, %yt : i32
    return %ys#0, %d, %go : i64, i32, none
  }
}
