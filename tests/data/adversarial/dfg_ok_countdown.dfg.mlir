// Hand-written while loop: count the steps of size s in [1, 10] that drain x (while x > 0: x -= s).
module {
  handshake.func @countdown(%x: i32 {loom.range = [-1000, 1000000]}, %s: i32 {loom.range = [1, 10]}, %start_token: none, ...) -> (i32, none) attributes {argNames = ["x", "s", "start_token"], resNames = ["steps", "done_token"]} {
    %zero0 = handshake.constant %start_token {value = 0 : i32} : i32
    %xc = dataflow.carry %cont, %x, %xn : i1, i32, i32 -> i32
    %cc = dataflow.carry %cont, %zero0, %cn : i1, i32, i32 -> i32
    %tok = dataflow.invariant %cont, %start_token : i1, none -> none
    %zero = handshake.constant %tok {value = 0 : i32} : i32
    %cont = arith.cmpi sgt, %xc, %zero : i32
    %x_in, %x_out = handshake.cond_br %cont, %xc : i32
    %c_in, %c_out = handshake.cond_br %cont, %cc : i32
    %s_w = dataflow.invariant %cont, %s : i1, i32 -> i32
    %s_in, %s_out = handshake.cond_br %cont, %s_w : i32
    %tok_in, %tok_out = handshake.cond_br %cont, %tok : none
    %one = handshake.constant %tok_in {value = 1 : i32} : i32
    %xn = arith.subi %x_in, %s_in : i32
    %cn = arith.addi %c_in, %one : i32
    handshake.sink %x_out : i32
    handshake.sink %s_out : i32
    handshake.sink %tok_out : none
    handshake.return %c_out, %start_token : i32, none
  }
}
