// ok_branch_long_loop: with c the start token goes straight to the return; without it a counted
// loop of 100 iterations (constant operands) runs first. The BMC explorer runs loops with
// concrete decisions in full only up to its per-loop cap (64 iterations): the c = false run is
// cut by that cap, which used to be counted like a run beyond the loop bound ("proved"); now
// the BMC obligations are unknown and name the cap.
// verify: unknown bmc
// sim: {"c": true} => completed []
// sim: {"c": false} => completed []
module {
  handshake.func @long(%c: i1, %start: none, ...) -> (none) attributes {argNames = ["c", "start"], resNames = ["done"]} {
    %t, %f = handshake.cond_br %c, %start : none
    %f4:4 = handshake.fork [4] %f : none
    %c0 = handshake.constant %f4#0 {value = 0 : index} : index
    %c1 = handshake.constant %f4#1 {value = 1 : index} : index
    %c100 = handshake.constant %f4#2 {value = 100 : index} : index
    %idx, %cont = dataflow.stream %c0, %c1, %c100 {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    handshake.sink %idx : index
    %cf:2 = handshake.fork [2] %cont : i1
    %ctl = dataflow.invariant %cf#0, %f4#3 : i1, none -> none
    %body, %exit = handshake.cond_br %cf#1, %ctl : none
    handshake.sink %body : none
    %m = handshake.merge %t, %exit : none
    handshake.return %m : none
  }
}
