// ok_streams_geometric: three independent streams with non-additive or exact-hit conditions,
// each summing its indices with a carry on its raw condition:
//   "*=" 3 from 1 while "<" 100   -> 1, 3, 9, 27, 81   sum 121
//   "<<=" 2 from 1 while "<=" 64  -> 1, 4, 16, 64      sum 85
//   "+=" 2 from 0 while "!=" 8    -> 0, 2, 4, 6        sum 12
// verify: proved
// sim: {} => completed [121, 85, 12]
module {
  handshake.func @streams_geometric(%start: none, ...) -> (index, index, index, none) attributes {argNames = ["start"], resNames = ["s1", "s2", "s3", "done"]} {
    %s:13 = handshake.fork [13] %start : none
    %a0 = handshake.constant %s#0 {value = 1 : index} : index
    %a1 = handshake.constant %s#1 {value = 3 : index} : index
    %a2 = handshake.constant %s#2 {value = 100 : index} : index
    %ai, %ac = dataflow.stream %a0, %a1, %a2 {step_op = "*=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %acf:3 = handshake.fork [3] %ac : i1
    %av, %aac = dataflow.gate %ai, %acf#0 : index, i1 -> index, i1
    handshake.sink %aac : i1
    %az = handshake.constant %s#3 {value = 0 : index} : index
    %aacc = dataflow.carry %acf#1, %az, %anext : i1, index, index -> index
    %aacc_t, %aacc_f = handshake.cond_br %acf#2, %aacc : index
    %anext = arith.addi %aacc_t, %av : index

    %b0 = handshake.constant %s#4 {value = 1 : index} : index
    %b1 = handshake.constant %s#5 {value = 2 : index} : index
    %b2 = handshake.constant %s#6 {value = 64 : index} : index
    %bi, %bc = dataflow.stream %b0, %b1, %b2 {step_op = "<<=", cont_cond = "<="} : (index, index, index) -> (index, i1)
    %bcf:3 = handshake.fork [3] %bc : i1
    %bv, %bac = dataflow.gate %bi, %bcf#0 : index, i1 -> index, i1
    handshake.sink %bac : i1
    %bz = handshake.constant %s#7 {value = 0 : index} : index
    %bacc = dataflow.carry %bcf#1, %bz, %bnext : i1, index, index -> index
    %bacc_t, %bacc_f = handshake.cond_br %bcf#2, %bacc : index
    %bnext = arith.addi %bacc_t, %bv : index

    %c0 = handshake.constant %s#8 {value = 0 : index} : index
    %c1 = handshake.constant %s#9 {value = 2 : index} : index
    %c2 = handshake.constant %s#10 {value = 8 : index} : index
    %ci, %cc = dataflow.stream %c0, %c1, %c2 {step_op = "+=", cont_cond = "!="} : (index, index, index) -> (index, i1)
    %ccf:3 = handshake.fork [3] %cc : i1
    %cv, %cac = dataflow.gate %ci, %ccf#0 : index, i1 -> index, i1
    handshake.sink %cac : i1
    %cz = handshake.constant %s#11 {value = 0 : index} : index
    %cacc = dataflow.carry %ccf#1, %cz, %cnext : i1, index, index -> index
    %cacc_t, %cacc_f = handshake.cond_br %ccf#2, %cacc : index
    %cnext = arith.addi %cacc_t, %cv : index
    handshake.return %aacc_f, %bacc_f, %cacc_f, %s#12 : index, index, index, none
  }
}
