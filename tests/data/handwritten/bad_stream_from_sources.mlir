// bad_stream_from_sources: a stream whose start, step and bound are operand-less arith.constant
// ops placed in the handshake.func: always-ready sources, so the stream is activated again
// after every exit and never stops emitting (the run never quiesces: the simulator stops at
// its step limit with thousands of tokens queued). The length calculus refutes the stream's
// class; the bounded exploration never gets a run to its end (unknown).
// verify: refuted class.%ai
// budget: 2
// sim: {} => residual
module {
  handshake.func @sources(%start: none, ...) -> (index, none) attributes {argNames = ["start"], resNames = ["sum", "done"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %s:2 = handshake.fork [2] %start : none
    %ai, %ac = dataflow.stream %c0, %c1, %c4 {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %acf:3 = handshake.fork [3] %ac : i1
    %av, %aac = dataflow.gate %ai, %acf#0 : index, i1 -> index, i1
    handshake.sink %aac : i1
    %az = handshake.constant %s#0 {value = 0 : index} : index
    %aacc = dataflow.carry %acf#1, %az, %anext : i1, index, index -> index
    %aacc_t, %aacc_f = handshake.cond_br %acf#2, %aacc : index
    %anext = arith.addi %aacc_t, %av : index
    handshake.return %aacc_f, %s#1 : index, none
  }
}
