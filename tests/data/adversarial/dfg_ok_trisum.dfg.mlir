// Hand-written, no memory: sum of i*i for i < n (i64), a stream with no zero-trip guard (the carry's seed leaves on the first false).
module {
  handshake.func @trisum(%n: index {loom.range = [0, 100000]}, %start_token: none, ...) -> (i64, none) attributes {argNames = ["n", "start_token"], resNames = ["sum", "done_token"]} {
    %lo = handshake.constant %start_token {value = 0 : index} : index
    %one = handshake.constant %start_token {value = 1 : index} : index
    %zero = handshake.constant %start_token {value = 0 : i64} : i64
    %i, %more = dataflow.stream %lo, %one, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %body = dataflow.gate %i, %more : index, i1 -> index, i1
    %acc = dataflow.carry %more, %zero, %acc_next : i1, i64, i64 -> i64
    %acc_in, %acc_out = handshake.cond_br %more, %acc : i64
    %iw = arith.index_cast %iv : index to i64
    %sq = arith.muli %iw, %iw : i64
    %acc_next = arith.addi %acc_in, %sq : i64
    handshake.return %acc_out, %start_token : i64, none
  }
}
