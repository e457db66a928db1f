// ok_nested_invariant_bound: sum over i < n, 0 <= j <= m of j: the inner "<=" stream's bound m
// is a function argument replayed once per outer iteration by a dataflow.invariant. The
// network is balanced and terminates for every m < INT64_MAX; the operand analysis does not
// see through the invariant, so it cannot exclude m = INT64_MAX (where j <= m never fails):
// the inner stream's precondition is unknown, with that reason, and nothing is refuted.
// verify: unknown fsm.stream.pre
// sim: {"n": 3, "m": 4} => completed [30]
// sim: {"n": 0, "m": 4} => completed [0]
// sim: {"n": 2, "m": -1} => completed [0]
module {
  handshake.func @nested_inv(%n: index, %m: index, %start: none, ...) -> (index, none) attributes {argNames = ["n", "m", "start"], resNames = ["sum", "done"]} {
    %s:3 = handshake.fork [3] %start : none
    %n2:2 = handshake.fork [2] %n : index
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n2#0 : index
    %g:4 = handshake.fork [4] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#1 : none
    %n_t, %n_f = handshake.cond_br %g#1, %n2#1 : index
    handshake.sink %n_f : index
    %m_t, %m_f = handshake.cond_br %g#2, %m : index
    handshake.sink %m_f : index
    %ot:4 = handshake.fork [4] %ctrl_t : none
    %o0 = handshake.constant %ot#0 {value = 0 : index} : index
    %o1 = handshake.constant %ot#1 {value = 1 : index} : index
    %oi, %oc = dataflow.stream %o0, %o1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %ocf:3 = handshake.fork [3] %oc : i1
    %i, %oac = dataflow.gate %oi, %ocf#0 : index, i1 -> index, i1
    handshake.sink %i : index
    %oacf:2 = handshake.fork [2] %oac : i1
    %zero = handshake.constant %ot#2 {value = 0 : index} : index
    %oacc = dataflow.carry %ocf#1, %zero, %inner_out : i1, index, index -> index
    %oacc_t, %oacc_f = handshake.cond_br %ocf#2, %oacc : index
    %octl = dataflow.invariant %oacf#0, %ot#3 : i1, none -> none
    %mb = dataflow.invariant %oacf#1, %m_t : i1, index -> index
    %ic:2 = handshake.fork [2] %octl : none
    %i0 = handshake.constant %ic#0 {value = 0 : index} : index
    %i1 = handshake.constant %ic#1 {value = 1 : index} : index
    %ji, %jc = dataflow.stream %i0, %i1, %mb {step_op = "+=", cont_cond = "<="} : (index, index, index) -> (index, i1)
    %jcf:3 = handshake.fork [3] %jc : i1
    %j, %jac = dataflow.gate %ji, %jcf#0 : index, i1 -> index, i1
    handshake.sink %jac : i1
    %iacc = dataflow.carry %jcf#1, %oacc_t, %inner_next : i1, index, index -> index
    %iacc_t, %inner_out = handshake.cond_br %jcf#2, %iacc : index
    %inner_next = arith.addi %iacc_t, %j : index
    %zero_f = handshake.constant %ctrl_f {value = 0 : index} : index
    %sum = handshake.mux %g#3 [%zero_f, %oacc_f] : i1, index
    handshake.return %sum, %s#2 : index, none
  }
}
