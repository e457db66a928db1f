// scf.if after --convert-scf-to-cf: a diamond with a merge block argument,
// cf.cond_br forwarding operands to both successors.
module {
  func.func @clamp(%arg0: i32, %arg1: i32) -> i32 {
    %0 = arith.cmpi sgt, %arg0, %arg1 : i32
    cf.cond_br %0, ^bb1(%arg1 : i32), ^bb2(%arg0 : i32)
  ^bb1(%1: i32):  // pred: ^bb0
    cf.br ^bb3(%1 : i32)
  ^bb2(%2: i32):  // pred: ^bb0
    %c1_i32 = arith.constant 1 : i32
    %3 = arith.addi %2, %c1_i32 overflow<nsw> : i32
    cf.br ^bb3(%3 : i32)
  ^bb3(%4: i32):  // 2 preds: ^bb1, ^bb2
    return %4 : i32
  }
}
