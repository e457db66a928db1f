// ok_primed_fib: Fibonacci with the previous value kept in a primed buffer on the carry: cur is
// a dataflow.carry (seed 1, fed back next = prev + cur) and prev = buffer [1] {initValues = [0]} of
// cur's body tokens, so prev offers 0, then cur of the iteration before. Per run the buffer takes N
// tokens and gives N (its initial one and all but the last it took); the last stays in it -- the
// token that re-arms it for the next run, which the simulator allows. The calculus types the buffer
// as a delay line: its output on its input's clock. fib(n) returns F(n+1).
// verify: proved
// sim: {"n": 5} => completed [8]
// sim: {"n": 1} => completed [1]
// sim: {"n": 0} => completed [1]
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
    %cur_t, %cur_f = handshake.cond_br %cf#1, %cur : index
    %ct:2 = handshake.fork [2] %cur_t : index
    %prev = handshake.buffer [1] seq %ct#0 {initValues = [0]} : index
    %next = arith.addi %prev, %ct#1 : index
    handshake.return %cur_f, %s#3 : index, none
  }
}
