// bad_stream_ne_miss: a "+=" 3 stream from 0 with cont_cond "!=" 10: the index goes 0, 3, 6, 9,
// 12, ... and never equals 10, so the stream only stops after wrapping around 2^64 (in
// practice never): fsm.stream.pre (an exact hit for "!=") is refuted.
// verify: refuted fsm.stream.pre
// sim: {} => error RT_SIM_STEP_LIMIT
module {
  handshake.func @ne_miss(%start: none, ...) -> (index, none) attributes {argNames = ["start"], resNames = ["sum", "done"]} {
    %s:5 = handshake.fork [5] %start : none
    %a0 = handshake.constant %s#0 {value = 0 : index} : index
    %a1 = handshake.constant %s#1 {value = 3 : index} : index
    %a2 = handshake.constant %s#2 {value = 10 : index} : index
    %ai, %ac = dataflow.stream %a0, %a1, %a2 {step_op = "+=", cont_cond = "!="} : (index, index, index) -> (index, i1)
    %acf:3 = handshake.fork [3] %ac : i1
    %av, %aac = dataflow.gate %ai, %acf#0 : index, i1 -> index, i1
    handshake.sink %aac : i1
    %az = handshake.constant %s#3 {value = 0 : index} : index
    %aacc = dataflow.carry %acf#1, %az, %anext : i1, index, index -> index
    %aacc_t, %aacc_f = handshake.cond_br %acf#2, %aacc : index
    %anext = arith.addi %aacc_t, %av : index
    handshake.return %aacc_f, %s#4 : index, none
  }
}
