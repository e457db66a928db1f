// ok_while_search: linear search with a sentinel, while (a[i] != key) i += 1, built from
// carries: the load sits in the while loop's before region, so it runs once per evaluation
// of the condition (N+1 times for N iterations) and its ctrl-done carry runs on the raw
// while condition; the exit done token leaves the loop on the condition's false side. The
// condition is copied by a handshake.lazy_fork.
// verify: proved
// sim: {"a": [4, 8, 15, 16], "key": 15} => completed [2]
// sim: {"a": [4, 8, 15, 16], "key": 4} => completed [0]
// sim: {"a": [4, 8, 15, 16], "key": 16} => completed [3]
module {
  handshake.func @search(%a: memref<?xi32>, %key: i32, %start: none, ...) -> (index, none) attributes {argNames = ["a", "key", "start"], resNames = ["pos", "done"]} {
    %s:3 = handshake.fork [3] %start : none
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %i = dataflow.carry %go#0, %c0, %i_next : i1, index, index -> index
    %k = dataflow.invariant %go#1, %key : i1, i32 -> i32
    %ctl = dataflow.invariant %go#2, %s#1 : i1, none -> none
    %mem = dataflow.carry %go#3, %s#2, %m_back : i1, none, none -> none
    %if:2 = handshake.fork [2] %i : index
    %v, %v_addr = handshake.load [%if#0] %a_data, %mem : index, i32
    %gov = arith.cmpi ne, %v, %k : i32
    %go:7 = handshake.lazy_fork [7] %gov : i1
    %i_t, %i_f = handshake.cond_br %go#4, %if#1 : index
    %c_t, %c_f = handshake.cond_br %go#5, %ctl : none
    handshake.sink %c_f : none
    %one = handshake.constant %c_t {value = 1 : index} : index
    %i_next = arith.addi %i_t, %one : index
    %m_back, %m_exit = handshake.cond_br %go#6, %a_done : none
    %a_data, %a_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%v_addr) {id = 0 : i32} : (index) -> (i32, none)
    handshake.return %i_f, %m_exit : index, none
  }
}
