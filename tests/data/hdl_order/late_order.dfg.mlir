// late_order: late_race with the order restored -- the store's ctrl is the load's done token (through the same
// 2-iteration loop), so Z3 proves mem.a.order.ld0<st0 for every schedule; by the refinement argument (specs/hdl.md,
// "Later stalls") its RTL monitor holds under every memory timing, which dfg_mem at 2 stalls and the stalled
// simulations test where the default bounded checks stop.
module {
  handshake.func @late_order(%a: memref<4xi32>, %start: none, ...) -> (i32, none) attributes {argNames = ["a", "start"], resNames = ["x", "done"]} {
    %s:4 = handshake.fork [4] %start : none
    %c0 = handshake.constant %s#0 {value = 0 : index} : index
    %c1 = handshake.constant %s#1 {value = 1 : index} : index
    %c12 = handshake.constant %s#2 {value = 12 : index} : index
    %idx, %cont = dataflow.stream %c0, %c1, %c12 {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    handshake.sink %idx : index
    %cf:2 = handshake.fork [2] %cont : i1
    %ctl = dataflow.carry %cf#0, %s#3, %body : i1, none, none -> none
    %body, %exit = handshake.cond_br %cf#1, %ctl : none
    %e:4 = handshake.fork [4] %exit : none
    %k0 = handshake.constant %e#0 {value = 0 : index} : index
    %x, %x_addr = handshake.load [%k0] %a_data, %e#1 : index, i32
    %z = handshake.constant %e#2 {value = 7 : i32} : i32
    %z1 = arith.index_cast %z : i32 to index
    %z2 = arith.index_cast %z1 : index to i32
    %z3 = arith.index_cast %z2 : i32 to index
    %z4 = arith.index_cast %z3 : index to i32
    %z4f:2 = handshake.fork [2] %z4 : i32
    %k1 = arith.subi %z4f#0, %z4f#1 : i32
    %ka = arith.index_cast %k1 : i32 to index
    %e3:4 = handshake.fork [4] %ld_done : none
    %d0 = handshake.constant %e3#0 {value = 0 : index} : index
    %d1 = handshake.constant %e3#1 {value = 1 : index} : index
    %dN = handshake.constant %e3#2 {value = 2 : index} : index
    %didx, %dcont = dataflow.stream %d0, %d1, %dN {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    handshake.sink %didx : index
    %dcf:2 = handshake.fork [2] %dcont : i1
    %dctl = dataflow.carry %dcf#0, %e3#3, %dbody : i1, none, none -> none
    %dbody, %dexit = handshake.cond_br %dcf#1, %dctl : none
    %dx:2 = handshake.fork [2] %dexit : none
    %v = handshake.constant %dx#0 {value = 5 : i32} : i32
    %st_d, %st_a = handshake.store [%ka] %v, %dx#1 : index, i32
    %a_data, %st_done, %ld_done = handshake.extmemory[ld = 1, st = 1] (%a : memref<4xi32>) (%st_d, %st_a, %x_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
    handshake.sink %e#3 : none
    handshake.return %x, %st_done : i32, none
  }
}
