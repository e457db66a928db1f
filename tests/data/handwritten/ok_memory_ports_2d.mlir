// ok_memory_ports_2d: a handshake.memory with two store ports and two load ports on a rank-2
// memref<2x4xi32> (two address operands per access): per iteration i < min(n, 4),
// M[0][i] = i, M[1][i] = 3 * i, then out[i] = M[0][i] + M[1][i], the four accesses chained
// store -> store -> load -> load through their done tokens.
// verify: proved
// sim: {"out": [0, 0, 0], "n": 3} => completed [] out=[0, 4, 8]
// sim: {"out": [5, 5, 5, 5, 5], "n": 7} => completed [] out=[0, 4, 8, 12, 5]
// sim: {"out": [5], "n": 0} => completed [] out=[5]
module {
  handshake.func @ports_2d(%out: memref<?xi32>, %n: index, %start: none, ...) -> none attributes {argNames = ["out", "n", "start"], resNames = ["done"]} {
    %s:5 = handshake.fork [5] %start : none
    %c4 = handshake.constant %s#0 {value = 4 : index} : index
    %m = arith.minsi %n, %c4 : index
    %mf:2 = handshake.fork [2] %m : index
    %c0 = handshake.constant %s#1 {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %mf#0 : index
    %g:6 = handshake.fork [6] %guard : i1
    %ctrl_t, %ctrl_f = handshake.cond_br %g#0, %s#2 : none
    handshake.sink %ctrl_f : none
    %m_t, %m_f = handshake.cond_br %g#1, %s#3 : none
    %o_t, %o_f = handshake.cond_br %g#2, %s#4 : none
    %bound_t, %bound_f = handshake.cond_br %g#3, %mf#1 : index
    handshake.sink %bound_f : index
    %ct:3 = handshake.fork [3] %ctrl_t : none
    %i0 = handshake.constant %ct#0 {value = 0 : index} : index
    %i1 = handshake.constant %ct#1 {value = 1 : index} : index
    %idx, %cont = dataflow.stream %i0, %i1, %bound_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
    %acf:5 = handshake.fork [5] %ac : i1
    %i:7 = handshake.fork [7] %iv : index
    %body = dataflow.invariant %acf#0, %ct#2 : i1, none -> none
    %bd:5 = handshake.fork [5] %body : none
    %r0 = handshake.constant %bd#0 {value = 0 : index} : index
    %r1 = handshake.constant %bd#1 {value = 1 : index} : index
    %r0b = handshake.constant %bd#2 {value = 0 : index} : index
    %r1b = handshake.constant %bd#3 {value = 1 : index} : index
    %three = handshake.constant %bd#4 {value = 3 : i32} : i32
    %iw = arith.index_cast %i#0 : index to i32
    %iwf:2 = handshake.fork [2] %iw : i32
    %i3 = arith.muli %iwf#1, %three : i32
    %m_loop = dataflow.carry %acf#1, %m_t, %m_back : i1, none, none -> none
    %s0_d, %s0_a0, %s0_a1 = handshake.store [%r0, %i#1] %iwf#0, %m_loop : index, index, i32
    %s1_d, %s1_a0, %s1_a1 = handshake.store [%r1, %i#2] %i3, %st_done#0 : index, index, i32
    %v0, %l0_a0, %l0_a1 = handshake.load [%r0b, %i#3] %m_data#0, %st_done#1 : index, index, i32
    %v1, %l1_a0, %l1_a1 = handshake.load [%r1b, %i#4] %m_data#1, %ld_done#0 : index, index, i32
    %m_back, %m_exit = handshake.cond_br %acf#2, %ld_done#1 : none
    %m_data:2, %st_done:2, %ld_done:2 = handshake.memory[ld = 2, st = 2] (%s0_d, %s0_a0, %s0_a1, %s1_d, %s1_a0, %s1_a1, %l0_a0, %l0_a1, %l1_a0, %l1_a1) {id = 0 : i32, lsq = false} : memref<2x4xi32>, (i32, index, index, i32, index, index, index, index, index, index) -> (i32, i32, none, none, none, none)
    %sum = arith.addi %v0, %v1 : i32
    %o_loop = dataflow.carry %acf#3, %o_t, %o_back : i1, none, none -> none
    %ow_d, %ow_a = handshake.store [%i#5] %sum, %o_loop : index, i32
    %o_back, %o_exit = handshake.cond_br %acf#4, %o_done : none
    %o_done = handshake.extmemory[ld = 0, st = 1] (%out : memref<?xi32>) (%ow_d, %ow_a) {id = 1 : i32} : (i32, index) -> (none)
    handshake.sink %i#6 : index
    %m_end = handshake.mux %g#4 [%m_f, %m_exit] : i1, none
    %o_end = handshake.mux %g#5 [%o_f, %o_exit] : i1, none
    %done = handshake.join %m_end, %o_end : none, none
    handshake.return %done : none
  }
}
