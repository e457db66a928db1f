// bad_causality_cycle: two loops over the same n; the second is started by the first one's exit
// token, yet each iteration of the first waits (handshake.join) for a token of the second's
// iteration. Every channel carries the right number of tokens (n per loop), but the first
// iteration's feedback can only come after the first loop has ended: for n >= 1 nothing moves.
// The length calculus cannot tell counts apart (unknown: the two loops' iterations are
// misaligned but balanced); the bounded exploration finds the deadlock.
// verify: refuted bmc.deadlock
// sim: {"n": 2} => deadlock
// sim: {"n": 0} => completed []
module {
  handshake.func @causality(%n: index, %start: none, ...) -> none attributes {argNames = ["n", "start"], resNames = ["done"]} {
    %s:3 = handshake.fork [3] %start : none
    %nn:2 = handshake.fork [2] %n : index
    %a0 = handshake.constant %s#0 {value = 0 : index} : index
    %a1 = handshake.constant %s#1 {value = 1 : index} : index
    %ai, %ac = dataflow.stream %a0, %a1, %nn#0 {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    handshake.sink %ai : index
    %acf:2 = handshake.fork [2] %ac : i1
    %c1 = dataflow.carry %acf#0, %s#2, %c1_fb : i1, none, none -> none
    %c1_t, %c1_exit = handshake.cond_br %acf#1, %c1 : none
    %c1_fb = handshake.join %c1_t, %b2 : none, none
    %e:3 = handshake.fork [3] %c1_exit : none
    %b0 = handshake.constant %e#0 {value = 0 : index} : index
    %b1 = handshake.constant %e#1 {value = 1 : index} : index
    %bi, %bc = dataflow.stream %b0, %b1, %nn#1 {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    handshake.sink %bi : index
    %bcf:2 = handshake.fork [2] %bc : i1
    %c2 = dataflow.carry %bcf#0, %e#2, %c2_fb : i1, none, none -> none
    %c2_t, %c2_exit = handshake.cond_br %bcf#1, %c2 : none
    %c2_fb, %b2 = handshake.fork [2] %c2_t : none
    handshake.return %c2_exit : none
  }
}
