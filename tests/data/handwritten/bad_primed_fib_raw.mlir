// bad_primed_fib_raw: ok_primed_fib with the primed buffer fed by the carry's raw output (N+1
// tokens: its exit value too) instead of its body tokens (N): the addition takes N of the N+2 tokens
// the buffer offers and two stay in it, one more than the token that re-arms it.
// verify: refuted balance bmc.residual
// twin: ok_primed_fib.mlir
// sim: {"n": 5} => residual
// sim: {"n": 0} => residual
module {
  handshake.func @fib(%n: index, %start: none, ...) -> (index, none) attributes {argNames = ["n", "start"], resNames = ["f", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %c1 = handshake.constant %s#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    handshake.sink %idx : index
    %cf:2 = handshake.fork [2] %cont : i1
    %one = handshake.constant %s#2 {value = 1 : index} : index
    %cur = dataflow.carry %cf#0, %one, %next : i1, index, index -> index
    %cu:2 = handshake.fork [2] %cur : index
    %cur_t, %cur_f = handshake.cond_br %cf#1, %cu#0 : index
    %prev = handshake.buffer [1] seq %cu#1 {initValues = [0]} : index
    %next = arith.addi %prev, %cur_t : index
    handshake.return %cur_f, %s#3 : index, none
  }
}
