// ok_streams_sign: four streams without cont_cond (v0's sign-of-step rule: "<" for a positive
// step, ">" for a negative one), each summing its indices with a carry on its raw condition:
//   "-=" 2 from 10 to 0 (step > 0: "<", 10 < 0 fails)          -> zero trips   sum 0
//   "*=" 2 from 1 to 20 (step > 0: "<")                         -> 1, 2, 4, 8, 16   sum 31
//   "*=" -2 from 1 to -100 (step < 0: ">", the sign alternates) -> 1, -2, 4, -8, 16, -32, 64  sum 43
//   "-=" -2 from 0 to 6 (step < 0: ">", 0 > 6 fails)            -> zero trips   sum 0
// verify: proved
// sim: {} => completed [0, 31, 43, 0]
module {
  handshake.func @streams_sign(%start: none, ...) -> (index, index, index, index, none) attributes {argNames = ["start"], resNames = ["a", "b", "c", "d", "done"]} {
    %s:17 = handshake.fork [17] %start : none
    %a0 = handshake.constant %s#0 {value = 10 : index} : index
    %a1 = handshake.constant %s#1 {value = 2 : index} : index
    %a2 = handshake.constant %s#2 {value = 0 : index} : index
    %ai, %ac = dataflow.stream %a0, %a1, %a2 {step_op = "-="} : (index, index, index) -> (index, i1)
    %acf:3 = handshake.fork [3] %ac : i1
    %av, %aac = dataflow.gate %ai, %acf#0 : index, i1 -> index, i1
    handshake.sink %aac : i1
    %az = handshake.constant %s#3 {value = 0 : index} : index
    %aacc = dataflow.carry %acf#1, %az, %anext : i1, index, index -> index
    %aacc_t, %aacc_f = handshake.cond_br %acf#2, %aacc : index
    %anext = arith.addi %aacc_t, %av : index
    %b0 = handshake.constant %s#4 {value = 1 : index} : index
    %b1 = handshake.constant %s#5 {value = 2 : index} : index
    %b2 = handshake.constant %s#6 {value = 20 : index} : index
    %bi, %bc = dataflow.stream %b0, %b1, %b2 {step_op = "*="} : (index, index, index) -> (index, i1)
    %bcf:3 = handshake.fork [3] %bc : i1
    %bv, %bac = dataflow.gate %bi, %bcf#0 : index, i1 -> index, i1
    handshake.sink %bac : i1
    %bz = handshake.constant %s#7 {value = 0 : index} : index
    %bacc = dataflow.carry %bcf#1, %bz, %bnext : i1, index, index -> index
    %bacc_t, %bacc_f = handshake.cond_br %bcf#2, %bacc : index
    %bnext = arith.addi %bacc_t, %bv : index
    %c0 = handshake.constant %s#8 {value = 1 : index} : index
    %c1 = handshake.constant %s#9 {value = -2 : index} : index
    %c2 = handshake.constant %s#10 {value = -100 : index} : index
    %ci, %cc = dataflow.stream %c0, %c1, %c2 {step_op = "*="} : (index, index, index) -> (index, i1)
    %ccf:3 = handshake.fork [3] %cc : i1
    %cv, %cac = dataflow.gate %ci, %ccf#0 : index, i1 -> index, i1
    handshake.sink %cac : i1
    %cz = handshake.constant %s#11 {value = 0 : index} : index
    %cacc = dataflow.carry %ccf#1, %cz, %cnext : i1, index, index -> index
    %cacc_t, %cacc_f = handshake.cond_br %ccf#2, %cacc : index
    %cnext = arith.addi %cacc_t, %cv : index
    %d0 = handshake.constant %s#12 {value = 0 : index} : index
    %d1 = handshake.constant %s#13 {value = -2 : index} : index
    %d2 = handshake.constant %s#14 {value = 6 : index} : index
    %di, %dc = dataflow.stream %d0, %d1, %d2 {step_op = "-="} : (index, index, index) -> (index, i1)
    %dcf:3 = handshake.fork [3] %dc : i1
    %dv, %dac = dataflow.gate %di, %dcf#0 : index, i1 -> index, i1
    handshake.sink %dac : i1
    %dz = handshake.constant %s#15 {value = 0 : index} : index
    %dacc = dataflow.carry %dcf#1, %dz, %dnext : i1, index, index -> index
    %dacc_t, %dacc_f = handshake.cond_br %dcf#2, %dacc : index
    %dnext = arith.addi %dacc_t, %dv : index
    handshake.return %aacc_f, %bacc_f, %cacc_f, %dacc_f, %s#16 : index, index, index, index, none
  }
}
