// ok_streams_rare: six independent streams with the rarer step/condition pairs, each summing
// its indices with a carry on its raw condition:
//   "/=" 2 from 100 while ">" 0          -> 100, 50, 25, 12, 6, 3, 1   sum 197
//   "*=" 2 from -1 while ">" -100        -> -1, -2, -4, ..., -64        sum -127
//   "<<=" 1 from 1 while "!=" 64         -> 1, 2, 4, ..., 32            sum 63 (an exact hit)
//   ">>=" 1 from -64 while "<" -1        -> -64, -32, ..., -2           sum -126
//   "-=" -3 from 0 while "<" 10          -> 0, 3, 6, 9                  sum 18
//   "/=" 3 from x while ">=" 1 (x an arg) -> x, x/3, ..., down to 1 (zero trips for x <= 0)
// verify: proved
// sim: {"x": 100} => completed [197, -127, 63, -126, 18, 148]
// sim: {"x": 0} => completed [197, -127, 63, -126, 18, 0]
// sim: {"x": -7} => completed [197, -127, 63, -126, 18, 0]
module {
  handshake.func @streams_rare(%x: index, %start: none, ...) -> (index, index, index, index, index, index, none) attributes {argNames = ["x", "start"], resNames = ["a", "b", "c", "d", "e", "f", "done"]} {
    %s:24 = handshake.fork [24] %start : none
    %a0 = handshake.constant %s#0 {value = 100 : index} : index
    %a1 = handshake.constant %s#1 {value = 2 : index} : index
    %a2 = handshake.constant %s#2 {value = 0 : index} : index
    %ai, %ac = dataflow.stream %a0, %a1, %a2 {step_op = "/=", cont_cond = ">"} : (index, index, index) -> (index, i1)
    %acf:3 = handshake.fork [3] %ac : i1
    %av, %aac = dataflow.gate %ai, %acf#0 : index, i1 -> index, i1
    handshake.sink %aac : i1
    %az = handshake.constant %s#3 {value = 0 : index} : index
    %aacc = dataflow.carry %acf#1, %az, %anext : i1, index, index -> index
    %aacc_t, %aacc_f = handshake.cond_br %acf#2, %aacc : index
    %anext = arith.addi %aacc_t, %av : index
    %b0 = handshake.constant %s#4 {value = -1 : index} : index
    %b1 = handshake.constant %s#5 {value = 2 : index} : index
    %b2 = handshake.constant %s#6 {value = -100 : index} : index
    %bi, %bc = dataflow.stream %b0, %b1, %b2 {step_op = "*=", cont_cond = ">"} : (index, index, index) -> (index, i1)
    %bcf:3 = handshake.fork [3] %bc : i1
    %bv, %bac = dataflow.gate %bi, %bcf#0 : index, i1 -> index, i1
    handshake.sink %bac : i1
    %bz = handshake.constant %s#7 {value = 0 : index} : index
    %bacc = dataflow.carry %bcf#1, %bz, %bnext : i1, index, index -> index
    %bacc_t, %bacc_f = handshake.cond_br %bcf#2, %bacc : index
    %bnext = arith.addi %bacc_t, %bv : index
    %c0 = handshake.constant %s#8 {value = 1 : index} : index
    %c1 = handshake.constant %s#9 {value = 1 : index} : index
    %c2 = handshake.constant %s#10 {value = 64 : index} : index
    %ci, %cc = dataflow.stream %c0, %c1, %c2 {step_op = "<<=", cont_cond = "!="} : (index, index, index) -> (index, i1)
    %ccf:3 = handshake.fork [3] %cc : i1
    %cv, %cac = dataflow.gate %ci, %ccf#0 : index, i1 -> index, i1
    handshake.sink %cac : i1
    %cz = handshake.constant %s#11 {value = 0 : index} : index
    %cacc = dataflow.carry %ccf#1, %cz, %cnext : i1, index, index -> index
    %cacc_t, %cacc_f = handshake.cond_br %ccf#2, %cacc : index
    %cnext = arith.addi %cacc_t, %cv : index
    %d0 = handshake.constant %s#12 {value = -64 : index} : index
    %d1 = handshake.constant %s#13 {value = 1 : index} : index
    %d2 = handshake.constant %s#14 {value = -1 : index} : index
    %di, %dc = dataflow.stream %d0, %d1, %d2 {step_op = ">>=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %dcf:3 = handshake.fork [3] %dc : i1
    %dv, %dac = dataflow.gate %di, %dcf#0 : index, i1 -> index, i1
    handshake.sink %dac : i1
    %dz = handshake.constant %s#15 {value = 0 : index} : index
    %dacc = dataflow.carry %dcf#1, %dz, %dnext : i1, index, index -> index
    %dacc_t, %dacc_f = handshake.cond_br %dcf#2, %dacc : index
    %dnext = arith.addi %dacc_t, %dv : index
    %e0 = handshake.constant %s#16 {value = 0 : index} : index
    %e1 = handshake.constant %s#17 {value = -3 : index} : index
    %e2 = handshake.constant %s#18 {value = 10 : index} : index
    %ei, %ec = dataflow.stream %e0, %e1, %e2 {step_op = "-=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %ecf:3 = handshake.fork [3] %ec : i1
    %ev, %eac = dataflow.gate %ei, %ecf#0 : index, i1 -> index, i1
    handshake.sink %eac : i1
    %ez = handshake.constant %s#19 {value = 0 : index} : index
    %eacc = dataflow.carry %ecf#1, %ez, %enext : i1, index, index -> index
    %eacc_t, %eacc_f = handshake.cond_br %ecf#2, %eacc : index
    %enext = arith.addi %eacc_t, %ev : index
    %f1 = handshake.constant %s#20 {value = 3 : index} : index
    %f2 = handshake.constant %s#21 {value = 1 : index} : index
    %fi, %fc = dataflow.stream %x, %f1, %f2 {step_op = "/=", cont_cond = ">="} : (index, index, index) -> (index, i1)
    %fcf:3 = handshake.fork [3] %fc : i1
    %fv, %fac = dataflow.gate %fi, %fcf#0 : index, i1 -> index, i1
    handshake.sink %fac : i1
    %fz = handshake.constant %s#22 {value = 0 : index} : index
    %facc = dataflow.carry %fcf#1, %fz, %fnext : i1, index, index -> index
    %facc_t, %facc_f = handshake.cond_br %fcf#2, %facc : index
    %fnext = arith.addi %facc_t, %fv : index
    handshake.return %aacc_f, %bacc_f, %cacc_f, %dacc_f, %eacc_f, %facc_f, %s#23 : index, index, index, index, index, index, none
  }
}
