// `mlir-opt --mlir-print-op-generic` output: every op in generic form, with
// properties `<{...}>`, explicit entry block labels and region lists.
"builtin.module"() ({
  "func.func"() <{function_type = (memref<8xi32>, i32) -> i32, sym_name = "count_above"}> ({
  ^bb0(%arg0: memref<8xi32>, %arg1: i32):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "arith.constant"() <{value = 8 : index}> : () -> index
    %2 = "arith.constant"() <{value = 1 : index}> : () -> index
    %3 = "arith.constant"() <{value = 0 : i32}> : () -> i32
    %4 = "arith.constant"() <{value = 1 : i32}> : () -> i32
    %5 = "scf.for"(%0, %1, %2, %3) ({
    ^bb0(%arg2: index, %arg3: i32):
      %6 = "memref.load"(%arg0, %arg2) <{nontemporal = false}> : (memref<8xi32>, index) -> i32
      %7 = "arith.cmpi"(%6, %arg1) <{predicate = 4 : i64}> : (i32, i32) -> i1
      %8 = "scf.if"(%7) ({
        %9 = "arith.addi"(%arg3, %4) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
        "scf.yield"(%9) : (i32) -> ()
      }, {
        "scf.yield"(%arg3) : (i32) -> ()
      }) : (i1) -> i32
      "scf.yield"(%8) : (i32) -> ()
    }) : (index, index, index, i32) -> i32
    "func.return"(%5) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
