// bad_merge_spin: a handshake.merge whose output is forked back into its own input (issue 13's
// reproducer). With c = false the start token enters the merge and circulates forever -- the fork
// also feeds a sink, so the network never stops firing and the return never fires. The BMC
// explorer used to cut that run at its firing cap, count it like a run beyond the loop bound and
// report "proved"; the run comes back to the same state, so it is a livelock, refuted.
// verify: refuted bmc.livelock balance.return
// sim: {"c": false} => error RT_SIM_STEP_LIMIT
// sim: {"c": true} => completed []
module {
  handshake.func @spin(%c: i1, %start: none, ...) -> (none) attributes {argNames = ["c", "start"], resNames = ["done"]} {
    %t, %f = handshake.cond_br %c, %start : none
    %m = handshake.merge %f, %fb : none
    %fb, %out = handshake.fork [2] %m : none
    handshake.sink %out : none
    handshake.return %t : none
  }
}
