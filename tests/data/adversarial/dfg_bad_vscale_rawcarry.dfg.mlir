// FAULT (carry on the raw condition): the load chain's ctrl carry reads the raw %more (n+1 tokens) instead of the gated %body (n).
module {
  handshake.func @vscale(%a: memref<?xi32>, %out: memref<?xi32>, %n: index, %k: i32, %start_token: none, ...) -> none attributes {argNames = ["a", "out", "n", "k", "start_token"], resNames = ["done_token"], loom.assume = ["n <= dim(a) && n <= dim(out)"]} {
    %zero = handshake.constant %start_token {value = 0 : index} : index
    %nonempty = arith.cmpi slt, %zero, %n : index
    %a_go, %a_skip = handshake.cond_br %nonempty, %start_token : none
    %o_go, %o_skip = handshake.cond_br %nonempty, %start_token : none
    %go, %skip = handshake.cond_br %nonempty, %start_token : none
    %n_go, %n_skip = handshake.cond_br %nonempty, %n : index
    %k_go, %k_skip = handshake.cond_br %nonempty, %k : i32
    %lo = handshake.constant %go {value = 0 : index} : index
    %one = handshake.constant %go {value = 1 : index} : index
    %i, %more = dataflow.stream %lo, %one, %n_go {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %iv, %body = dataflow.gate %i, %more : index, i1 -> index, i1
    %k_loop = dataflow.invariant %body, %k_go : i1, i32 -> i32
    %a_ctl = dataflow.carry %more, %a_go, %a_next : i1, none, none -> none
    %o_ctl = dataflow.carry %body, %o_go, %o_next : i1, none, none -> none
    %x, %x_addr = handshake.load [%iv] %a_mem, %a_ctl : index, i32
    %y = arith.muli %x, %k_loop : i32
    %y_data, %y_addr = handshake.store [%iv] %y, %o_ctl : index, i32
    %a_next, %a_exit = handshake.cond_br %body, %a_ld_done : none
    %o_next, %o_exit = handshake.cond_br %body, %o_st_done : none
    %a_done = handshake.mux %nonempty [%a_skip, %a_exit] : i1, none
    %o_done = handshake.mux %nonempty [%o_skip, %o_exit] : i1, none
    %done = handshake.join %a_done, %o_done : none, none
    %a_mem, %a_ld_done = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xi32>) (%x_addr) {id = 0 : i32} : (index) -> (i32, none)
    %o_st_done = handshake.extmemory[ld = 0, st = 1] (%out : memref<?xi32>) (%y_data, %y_addr) {id = 1 : i32} : (i32, index) -> none
    handshake.sink %skip : none
    handshake.sink %n_skip : index
    handshake.sink %k_skip : i32
    handshake.return %done : none
  }
}
