// ok_countdown_ne: sum of n, n-1, ..., 1 with a "-=" 1 / "!=" 0 stream: it ends only because
// it starts at a non-negative n (from a negative start it would wrap around). The start is the
// true side of a handshake.cond_br on 0 < n, so every activation has n >= 1: the operand
// analysis sees the branch's path condition and proves the exact hit.
// verify: proved
// sim: {"n": 4} => completed [10]
// sim: {"n": 0} => completed [0]
// sim: {"n": -3} => completed [0]
module {
  handshake.func @countdown(%n: index, %start: none, ...) -> (index, none) attributes {argNames = ["n", "start"], resNames = ["sum", "done"]} {
    %s:3 = handshake.fork [3] %start : none
    %nn:2 = handshake.fork [2] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %nn#0 : index
    %g:3 = handshake.fork [3] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    %n_t, %n_f = handshake.cond_br %g#1, %nn#1 : index
    handshake.sink %n_f : index
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %one = handshake.constant %ct#0 {value = 1 : index} : index
    %zero_b = handshake.constant %ct#1 {value = 0 : index} : index
    %ai, %ac = dataflow.stream %n_t, %one, %zero_b {step_op = "-=", cont_cond = "!="} : (index, index, index) -> (index, i1)
    %acf:3 = handshake.fork [3] %ac : i1
    %av, %aac = dataflow.gate %ai, %acf#0 : index, i1 -> index, i1
    handshake.sink %aac : i1
    %az = handshake.constant %ct#2 {value = 0 : index} : index
    %acc = dataflow.carry %acf#1, %az, %next : i1, index, index -> index
    %acc_t, %acc_f = handshake.cond_br %acf#2, %acc : index
    %next = arith.addi %acc_t, %av : index
    %zf = handshake.constant %ctrl_f {value = 0 : index} : index
    %sum = handshake.mux %g#2 [%zf, %acc_f] : i1, index
    handshake.return %sum, %s#2 : index, none
  }
}
