// bad_stream_zero_step: a ">>=" stream whose step (the shift amount) is the argument k: for
// k = 0 the stream faults with RT_DATAFLOW_STREAM_ZERO_STEP (and a zero shift would never
// end anyway): fsm.stream.pre is refuted with k = 0.
// verify: refuted fsm.stream.pre
// sim: {"k": 0} => error RT_DATAFLOW_STREAM_ZERO_STEP
// sim: {"k": 1} => completed [127]
module {
  handshake.func @zero_step(%k: index, %start: none, ...) -> (index, none) attributes {argNames = ["k", "start"], resNames = ["sum", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    %a0 = handshake.constant %s#0 {value = 64 : index} : index
    %a2 = handshake.constant %s#1 {value = 0 : index} : index
    %ai, %ac = dataflow.stream %a0, %k, %a2 {step_op = ">>=", cont_cond = ">"} : (index, index, index) -> (index, i1)
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
