// ok_merge_nests: a handshake.merge whose two inputs live in different loop nests: the else side
// is a function-level constant, the then side the body value of a loop whose trip count is the
// constant 1, so exactly one token reaches the merge in every run. The length calculus has no
// rule for a merge across loop nests: unknown with that reason, and so is what depends on it
// (never a refutation of the correct consumers behind it); the bounded check proves the runs.
//   y = x > 0 ? x + 0 : x + 5
// verify: unknown balance
// sim: {"x": 3} => completed [3]
// sim: {"x": -2} => completed [3]
module {
  handshake.func @merge_nests(%x: i32, %start: none, ...) -> (i32, none) attributes {argNames = ["x", "start"], resNames = ["y", "done"]} {
    %s:3 = handshake.fork [3] %start : none
    %xx:2 = handshake.fork [2] %x : i32
    %z = handshake.constant %s#0 {value = 0 : i32} : i32
    %pos = arith.cmpi sgt, %xx#0, %z : i32
    %t, %f = handshake.cond_br %pos, %s#1 : none
    %tt:3 = handshake.fork [3] %t : none
    %c0 = handshake.constant %tt#0 {value = 0 : index} : index
    %c1 = handshake.constant %tt#1 {value = 1 : index} : index
    %c1b = handshake.constant %tt#2 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %c0, %c1, %c1b {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    handshake.sink %ac : i1
    %v_body = arith.index_cast %iv : index to i32
    %v_f = handshake.constant %f {value = 5 : i32} : i32
    %m = handshake.merge %v_f, %v_body : i32
    %y = arith.addi %m, %xx#1 : i32
    handshake.return %y, %s#2 : i32, none
  }
}
