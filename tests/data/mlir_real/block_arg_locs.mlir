// Region and block arguments carrying locations (mlir-opt
// --mlir-print-debuginfo), an scf.while whose regions name their arguments
// with locations, and argument attributes on the function.
#loc = loc("find.c":2:0)
#loc2 = loc("find.c":2:31)
module {
  func.func @find_first(%arg0: memref<?xi32> {llvm.noalias, llvm.readonly} loc("find.c":2:20), %arg1: index loc(#loc2), %arg2: i32 loc("find.c":2:40)) -> index {
    %c0 = arith.constant 0 : index loc(#loc)
    %c1 = arith.constant 1 : index loc(#loc)
    %true = arith.constant true loc(#loc)
    %0:2 = scf.while (%arg3 = %c0, %arg4 = %true) : (index, i1) -> (index, i1) {
      %1 = arith.cmpi ult, %arg3, %arg1 : index loc("find.c":3:12)
      %2 = arith.andi %1, %arg4 : i1 loc("find.c":3:20)
      scf.condition(%2) %arg3, %arg4 : index, i1 loc("find.c":3:3)
    } do {
    ^bb0(%arg3: index loc("find.c":3:8), %arg4: i1 loc(unknown)):
      %1 = memref.load %arg0[%arg3] : memref<?xi32> loc("find.c":4:9)
      %2 = arith.cmpi ne, %1, %arg2 : i32 loc("find.c":4:14)
      %3 = arith.addi %arg3, %c1 : index loc("find.c":5:5)
      %4 = arith.select %2, %3, %arg3 : index loc("find.c":4:5)
      scf.yield %4, %2 : index, i1 loc("find.c":6:3)
    } loc("find.c":3:3)
    return %0#0 : index loc("find.c":7:3)
  } loc(#loc)
} loc(#loc)
