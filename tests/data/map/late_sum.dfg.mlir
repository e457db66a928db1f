// late_sum: r = sum over i < n of (i + s), where s = sum over i < n of i. One stream's indices feed both
// loops: the first sums them, the second adds each to s, which exists only after the first loop ends. So
// the second loop's operand route (%iv -> %y) and its condition routes must hold n tokens while the first
// loop runs. With unbounded channels (the DFG's own verify) every run ends; on a fabric whose route from
// %iv to %y holds fewer than n values, the stream stalls and the first loop never ends: a deadlock that
// only the routes' depths cause (map.fifo.bmc.K*.deadlock, tests/unit/map/test_map_fifo_depth.py).
module {
  handshake.func @late_sum(%n: index {loom.range = [0, 6]}, %start: none, ...) -> (index, none) attributes {argNames = ["n", "start"], resNames = ["r", "done"]} {
    %i0 = handshake.constant %start {value = 0 : index} : index
    %i1 = handshake.constant %start {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    handshake.sink %ac : i1
    %z1 = handshake.constant %start {value = 0 : index} : index
    %acc = dataflow.carry %cont, %z1, %next : i1, index, index -> index
    %acc_t, %acc_f = handshake.cond_br %cont, %acc : index
    %next = arith.addi %acc_t, %iv : index
    %sw = dataflow.invariant %cont, %acc_f : i1, index -> index
    %sw_t, %sw_f = handshake.cond_br %cont, %sw : index
    handshake.sink %sw_f : index
    %y = arith.addi %iv, %sw_t : index
    %z2 = handshake.constant %start {value = 0 : index} : index
    %acc2 = dataflow.carry %cont, %z2, %next2 : i1, index, index -> index
    %acc2_t, %acc2_f = handshake.cond_br %cont, %acc2 : index
    %next2 = arith.addi %acc2_t, %y : index
    handshake.return %acc2_f, %start : index, none
  }
}
