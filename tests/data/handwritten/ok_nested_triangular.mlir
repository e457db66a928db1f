// ok_nested_triangular: two nested loops, the inner bound is the outer index:
// sum over 0 <= j < i < n of j. The inner stream is activated once per outer iteration,
// its start/step constants triggered by a body ctrl token (dataflow.invariant on the outer
// after_cond); the outer loop is guarded by 0 < n. The inner loop runs 0 times when i = 0.
// verify: proved
// sim: {"n": 0} => completed [0]
// sim: {"n": 1} => completed [0]
// sim: {"n": 4} => completed [4]
// sim: {"n": 6} => completed [20]
module {
  handshake.func @triangular(%n: index, %start: none, ...) -> (index, none) attributes {argNames = ["n", "start"], resNames = ["sum", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    handshake.sink %s#2 : none
    %n2:2 = handshake.fork [2] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n2#0 : index
    %g:4 = handshake.fork [4] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    %n_t, %n_f = handshake.cond_br %g#1, %n2#1 : index
    %ot3:2 = handshake.fork [2] %ctrl_t : none
    %ot:3 = handshake.fork [3] %ot3#0 : none
    %o0 = handshake.constant %ot#0 {value = 0 : index} : index
    %o1 = handshake.constant %ot#1 {value = 1 : index} : index
    %oi, %oc = dataflow.stream %o0, %o1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %ocf:3 = handshake.fork [3] %oc : i1
    %i, %oac = dataflow.gate %oi, %ocf#0 : index, i1 -> index, i1
    %zero = handshake.constant %ot#2 {value = 0 : index} : index
    %oacc = dataflow.carry %ocf#1, %zero, %inner_out : i1, index, index -> index
    %oacc_t, %oacc_f = handshake.cond_br %ocf#2, %oacc : index
    %octl = dataflow.invariant %oac, %ot3#1 : i1, none -> none
    %ic:2 = handshake.fork [2] %octl : none
    %i0 = handshake.constant %ic#0 {value = 0 : index} : index
    %i1 = handshake.constant %ic#1 {value = 1 : index} : index
    %ji, %jc = dataflow.stream %i0, %i1, %i {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %jcf:3 = handshake.fork [3] %jc : i1
    %j, %jac = dataflow.gate %ji, %jcf#0 : index, i1 -> index, i1
    handshake.sink %jac : i1
    %iacc = dataflow.carry %jcf#1, %oacc_t, %inner_next : i1, index, index -> index
    %iacc_t, %inner_out = handshake.cond_br %jcf#2, %iacc : index
    %inner_next = arith.addi %iacc_t, %j : index
    %zero_f = handshake.constant %ctrl_f {value = 0 : index} : index
    %sum = handshake.mux %g#2 [%zero_f, %oacc_f] : i1, index
    handshake.sink %n_f : index
    handshake.sink %g#3 : i1
    handshake.return %sum, %s#3 : index, none
  }
}
