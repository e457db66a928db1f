// ok_data_trip: the trip count is data: n = a[0] is loaded first, then the loop sums
// a[1..n] (a[0] <= 0 runs it zero times). The loop's loads are ordered after the first load
// by the ctrl-done chain of domain a: the first load's done token seeds the loop's ctrl carry
// (compute ctrl comes from the start token: a done token only continues its domain's chain).
// verify: proved
// sim: {"a": [3, 10, 20, 30, 40]} => completed [60]
// sim: {"a": [0, 5]} => completed [0]
// sim: {"a": [-2]} => completed [0]
// sim: {"a": [1, 9]} => completed [9]
module {
  handshake.func @data_trip(%a: memref<?xi32>, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "start"], resNames = ["sum", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %nw, %nw_addr = handshake.load [%c0] %a_data#0, %s#1 : index, i32
    %n = arith.index_cast %nw : i32 to index
    %nn:2 = handshake.fork [2] %n : index
    %c0b = handshake.constant %s#2 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0b, %nn#0 : index
    %g:5 = handshake.fork [5] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#3 : none
    %mem_t, %mem_f = handshake.cond_br %g#1, %a_done#0 : none
    %n_t, %n_f = handshake.cond_br %g#2, %nn#1 : index
    handshake.sink %n_f : index
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %one = handshake.constant %ct#0 {value = 1 : index} : index
    %one_s = handshake.constant %ct#1 {value = 1 : index} : index
    %hi = arith.addi %n_t, %one_s : index
    %ones:2 = handshake.fork [2] %one : index
    %idx, %cont = dataflow.stream %ones#0, %ones#1, %hi {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %cf:2 = handshake.fork [2] %cont : i1
    %iv, %ac = dataflow.gate %idx, %cf#0 : index, i1 -> index, i1
    %acf:2 = handshake.fork [2] %ac : i1
    %zero = handshake.constant %ct#2 {value = 0 : i32} : i32
    %cw:2 = handshake.fork [2] %cf#1 : i1
    %acc = dataflow.carry %cw#0, %zero, %next : i1, i32, i32 -> i32
    %acc_t, %acc_f = handshake.cond_br %cw#1, %acc : i32
    %loop = dataflow.carry %acf#0, %mem_t, %back : i1, none, none -> none
    %v, %v_addr = handshake.load [%iv] %a_data#1, %loop : index, i32
    %next = arith.addi %acc_t, %v : i32
    %back, %exit = handshake.cond_br %acf#1, %a_done#1 : none
    %a_data:2, %a_done:2 = handshake.extmemory[ld = 2, st = 0] (%a : memref<?xi32>) (%nw_addr, %v_addr) {id = 0 : i32} : (index, index) -> (i32, i32, none, none)
    %zf = handshake.constant %ctrl_f {value = 0 : i32} : i32
    %sum = handshake.mux %g#3 [%zf, %acc_f] : i1, i32
    %done = handshake.mux %g#4 [%mem_f, %exit] : i1, none
    handshake.return %sum, %done : i32, none
  }
}
