// ok_shift_chain: a[i+1] = a[i] + 1 for i < n - 1 (each iteration reads what the previous one
// wrote: a read-after-write across iterations in one domain). The iteration's load and store
// are chained load -> store by done tokens and the store's done token starts the next
// iteration, so every load sees the previous store.
// verify: proved
// sim: {"a": [5, 0, 0, 0], "n": 4} => completed [] a=[5, 6, 7, 8]
// sim: {"a": [5], "n": 1} => completed [] a=[5]
module {
  handshake.func @shift_chain(%a: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["a", "n", "start"], resNames = ["done"]} {
    %s:4 = handshake.fork [4] %start : none
    %c1s = handshake.constant %s#0 {value = 1 : index} : index
    %m = arith.subi %n, %c1s : index
    %mm:2 = handshake.fork [2] %m : index
    %c0 = handshake.constant %s#1 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %mm#0 : index
    %g:4 = handshake.fork [4] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#2 : none
    handshake.sink %ctrl_f : none
    %a_t, %a_f = handshake.cond_br %g#1, %s#3 : none
    %m_t, %m_f = handshake.cond_br %g#2, %mm#1 : index
    handshake.sink %m_f : index
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %m_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    %acf:3 = handshake.fork [3] %ac : i1
    %i:2 = handshake.fork [2] %iv : index
    %body = dataflow.invariant %acf#0, %ct#2 : i1, none -> none
    %bd:2 = handshake.fork [2] %body : none
    %one_i = handshake.constant %bd#0 {value = 1 : index} : index
    %one_v = handshake.constant %bd#1 {value = 1 : i32} : i32
    %ip1 = arith.addi %i#1, %one_i : index
    %a_loop = dataflow.carry %acf#1, %a_t, %a_back : i1, none, none -> none
    %x, %x_addr = handshake.load [%i#0] %a_data, %a_loop : index, i32
    %y = arith.addi %x, %one_v : i32
    %st_d, %st_a = handshake.store [%ip1] %y, %ld_done : index, i32
    %a_back, %a_exit = handshake.cond_br %acf#2, %st_done : none
    %a_data, %st_done, %ld_done = handshake.extmemory[ld = 1, st = 1] (%a : memref<?xi32>) (%st_d, %st_a, %x_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
    %a_end = handshake.mux %g#3 [%a_f, %a_exit] : i1, none
    handshake.return %a_end : none
  }
}
