// a loop without memory: acc = sum of i for i < n; its recurrences (the carry's, the stream's) take 1 cycle
module {
  handshake.func @count(%n: index, %start_token: none, ...) -> (index, none) attributes {argNames = ["n", "start_token"], resNames = ["result0", "done_token"]} {
    %c0 = handshake.constant %start_token {value = 0 : index} : index
    %guard = arith.cmpi slt, %c0, %n : index
    %ctrl_t, %ctrl_f = handshake.cond_br %guard, %start_token : none
    %c0_0 = handshake.constant %ctrl_t {value = 0 : index} : index
    %n_t, %n_f = handshake.cond_br %guard, %n : index
    %c1 = handshake.constant %ctrl_t {value = 1 : index} : index
    %index, %willContinue = dataflow.stream %c0_0, %c1, %n_t {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %afterValue, %afterCond = dataflow.gate %index, %willContinue : index, i1 -> index, i1
    %zero = handshake.constant %ctrl_t {value = 0 : index} : index
    %carry_acc = dataflow.carry %willContinue, %zero, %next : i1, index, index -> index
    %acc_t, %acc_f = handshake.cond_br %willContinue, %carry_acc : index
    %next = arith.addi %acc_t, %afterValue : index
    handshake.sink %afterCond : i1
    %zero_0 = handshake.constant %ctrl_f {value = 0 : index} : index
    %acc = handshake.mux %guard [%zero_0, %acc_f] : i1, index
    handshake.sink %n_f : index
    handshake.return %acc, %start_token : index, none
  }
}
