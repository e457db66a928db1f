// bad_stream_le_max: sum of i for 0 <= i <= n with a "+=" 1 / "<=" stream bounded by the argument
// n itself: for n = INT64_MAX the condition i <= n never fails (the index wraps to INT64_MIN),
// so the stream never ends. fsm.stream.pre is refuted with that argument.
// verify: refuted fsm.stream.pre
// sim: {"n": 9223372036854775807} => error RT_SIM_STEP_LIMIT
// sim: {"n": 3} => completed [6]
// sim: {"n": -1} => completed [0]
module {
  handshake.func @le_max(%n: index, %start: none, ...) -> (index, none) attributes {argNames = ["n", "start"], resNames = ["sum", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    %a0 = handshake.constant %s#0 {value = 0 : index} : index
    %a1 = handshake.constant %s#1 {value = 1 : index} : index
    %ai, %ac = dataflow.stream %a0, %a1, %n {step_op = "+=", cont_cond = "<="} : (index, index, index) -> (index, i1)
    %acf:3 = handshake.fork [3] %ac : i1
    %av, %aac = dataflow.gate %ai, %acf#0 : index, i1 -> index, i1
    handshake.sink %aac : i1
    %az = handshake.constant %s#2 {value = 0 : index} : index
    %aacc = dataflow.carry %acf#1, %az, %anext : i1, index, index -> index
    %aacc_t, %aacc_f = handshake.cond_br %acf#2, %aacc : index
    %anext = arith.addi %aacc_t, %av : index
    handshake.return %aacc_f, %s#3 : index, none
  }
}
