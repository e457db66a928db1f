// cgeist (Polygeist) output for a histogram and a Collatz step counter, with
// --raise-scf-to-affine off: i32 parameters cast to index, an llvm linkage
// attribute, target attributes on the module, and a C while loop as scf.while.
module attributes {dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<f80, dense<128> : vector<2xi64>>, #dlti.dl_entry<i64, dense<64> : vector<2xi64>>, #dlti.dl_entry<"dlti.endianness", "little">>, llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "polygeist.target-cpu" = "x86-64", "polygeist.target-features" = "+cx8,+fxsr,+mmx,+sse,+sse2,+x87", "polygeist.tune-cpu" = "generic"} {
  func.func @histogram(%arg0: memref<?xi32>, %arg1: memref<?xi32>, %arg2: i32) -> i32 attributes {llvm.linkage = #llvm.linkage<external>} {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %c3_i32 = arith.constant 3 : i32
    %0 = arith.index_cast %arg2 : i32 to index
    %1 = scf.for %arg3 = %c0 to %0 step %c1 iter_args(%arg4 = %c0_i32) -> (i32) {
      %2 = memref.load %arg0[%arg3] : memref<?xi32>
      %3 = arith.index_cast %2 : i32 to index
      %4 = memref.load %arg1[%3] : memref<?xi32>
      %5 = arith.addi %4, %c1_i32 : i32
      memref.store %5, %arg1[%3] : memref<?xi32>
      %6:2 = scf.while (%arg5 = %2, %arg6 = %c0_i32) : (i32, i32) -> (i32, i32) {
        %8 = arith.cmpi sgt, %arg5, %c1_i32 : i32
        scf.condition(%8) %arg5, %arg6 : i32, i32
      } do {
      ^bb0(%arg5: i32, %arg6: i32):
        %8 = arith.remsi %arg5, %c2_i32 : i32
        %9 = arith.cmpi eq, %8, %c0_i32 : i32
        %10 = scf.if %9 -> (i32) {
          %12 = arith.divsi %arg5, %c2_i32 : i32
          scf.yield %12 : i32
        } else {
          %12 = arith.muli %arg5, %c3_i32 : i32
          %13 = arith.addi %12, %c1_i32 : i32
          scf.yield %13 : i32
        }
        %11 = arith.addi %arg6, %c1_i32 : i32
        scf.yield %10, %11 : i32, i32
      }
      %7 = arith.addi %arg4, %6#1 : i32
      scf.yield %7 : i32
    }
    return %1 : i32
  }
}
