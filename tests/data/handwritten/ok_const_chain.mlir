// ok_const_chain: a loop whose start, step and bound come out of a long chain of
// handshake.constant and arith ops (constants triggered through forks, joins and buffers of
// the start token): start = 0, step = 3 - 1 = 2, bound = 2 * 3 + 1 = 7, cont_cond "<=".
// The trip count is the constant 4 (idx 0, 2, 4, 6); the result is their sum, 12.
// verify: proved
// sim: {} => completed [12]
module {
  handshake.func @const_chain(%start: none, ...) -> (index, none) attributes {argNames = ["start"], resNames = ["sum", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    %j = handshake.join %s#0, %s#1 : none, none
    %jb = handshake.buffer [3] fifo %j : none
    %k:6 = handshake.fork [6] %jb : none
    %c2 = handshake.constant %k#0 {value = 2 : index} : index
    %c3:2 = handshake.fork [2] %c3v : index
    %c3v = handshake.constant %k#1 {value = 3 : index} : index
    %c1:2 = handshake.fork [2] %c1v : index
    %c1v = handshake.constant %k#2 {value = 1 : index} : index
    %c6 = arith.muli %c2, %c3#0 : index
    %c7 = arith.addi %c6, %c1#0 : index
    %step = arith.subi %c3#1, %c1#1 : index
    %c0 = handshake.constant %k#3 {value = 0 : index} : index
    %c100 = handshake.constant %k#4 {value = 100 : index} : index
    %c100b = handshake.constant %k#5 {value = 100 : index} : index
    %start_i = arith.subi %c100, %c100b : index
    %bound = arith.maxsi %c7, %c0 : index
    %idx, %cont = dataflow.stream %start_i, %step, %bound {step_op = "+=", cont_cond = "<="} : (index, index, index) -> (index, i1)
    %cf:3 = handshake.fork [3] %cont : i1
    %iv, %ic = dataflow.gate %idx, %cf#0 : index, i1 -> index, i1
    handshake.sink %ic : i1
    %zero = handshake.constant %s#2 {value = 0 : index} : index
    %acc = dataflow.carry %cf#1, %zero, %next : i1, index, index -> index
    %acc_t, %acc_f = handshake.cond_br %cf#2, %acc : index
    %next = arith.addi %acc_t, %iv : index
    handshake.return %acc_f, %s#3 : index, none
  }
}
