// The cf_loop kernel printed with --mlir-print-op-generic: successor lists,
// operandSegmentSizes on cf.cond_br, and block arguments in every block.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<?xi32>, index) -> i32, sym_name = "sum_pos"}> ({
  ^bb0(%arg0: memref<?xi32>, %arg1: index):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "arith.constant"() <{value = 1 : index}> : () -> index
    %2 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    "cf.br"(%0, %2)[^bb1] : (index, i32) -> ()
  ^bb1(%3: index, %4: i32):  // 2 preds: ^bb0, ^bb4
    %5 = "arith.cmpi"(%3, %arg1) <{predicate = 2 : i64}> : (index, index) -> i1
    "cf.cond_br"(%5)[^bb2, ^bb5] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
  ^bb2:  // pred: ^bb1
    %6 = "memref.load"(%arg0, %3) : (memref<?xi32>, index) -> i32
    %7 = "arith.cmpi"(%6, %2) <{predicate = 4 : i64}> : (i32, i32) -> i1
    %8 = "arith.addi"(%4, %6) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    "cf.cond_br"(%7, %8, %4)[^bb3, ^bb4] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, i32, i32) -> ()
  ^bb3(%9: i32):  // pred: ^bb2
    "cf.br"(%9)[^bb4] : (i32) -> ()
  ^bb4(%10: i32):  // 2 preds: ^bb2, ^bb3
    %11 = "arith.addi"(%3, %1) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
    "cf.br"(%11, %10)[^bb1] : (index, i32) -> ()
  ^bb5:  // pred: ^bb1
    "func.return"(%4) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
