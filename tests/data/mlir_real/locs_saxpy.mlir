// mlir-opt --mlir-print-debuginfo output of a clang-style saxpy: #loc aliases
// defined after the module, fused/name/callsite locations, block arguments with
// locations, module attributes and llvm.emit_c_interface.
#loc = loc("saxpy.c":3:0)
#loc1 = loc("saxpy.c":3:20)
#loc2 = loc("saxpy.c":3:30)
#loc3 = loc("saxpy.c":3:47)
#loc4 = loc("saxpy.c":3:57)
module attributes {dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<index, 64 : i64>, #dlti.dl_entry<"dlti.endianness", "little">>, llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  func.func @saxpy(%arg0: f32 loc("saxpy.c":3:20), %arg1: memref<?xf32> loc("saxpy.c":3:30), %arg2: memref<?xf32> loc(#loc3), %arg3: index loc(#loc4)) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index loc(#loc5)
    %c1 = arith.constant 1 : index loc(#loc5)
    scf.for %arg4 = %c0 to %arg3 step %c1 {
      %0 = memref.load %arg1[%arg4] : memref<?xf32> loc(#loc7)
      %1 = memref.load %arg2[%arg4] : memref<?xf32> loc(callsite("inner"("saxpy.c":5:14) at "saxpy.c":9:3))
      %2 = arith.mulf %arg0, %0 : f32 loc(fused<"clang">[#loc7, #loc8])
      %3 = arith.addf %2, %1 : f32 loc(#loc8)
      memref.store %3, %arg2[%arg4] : memref<?xf32> loc("y[i]"(#loc8))
    } loc(#loc6)
    return loc(#loc9)
  } loc(#loc)
} loc(unknown)
#loc5 = loc(unknown)
#loc6 = loc("saxpy.c":4:3)
#loc7 = loc("saxpy.c":5:14)
#loc8 = loc(fused[#loc6, "saxpy.c":5:20])
#loc9 = loc("saxpy.c":7:1)
