// cgeist's default output raises loops to the affine dialect, which is outside
// loom's SCF subset: loom names the first affine op (run
// `mlir-opt --lower-affine` first to get scf.for).
#map = affine_map<()[s0] -> (s0)>
module {
  func.func @scale(%arg0: memref<?xf32>, %arg1: i32, %arg2: f32) attributes {llvm.linkage = #llvm.linkage<external>} {
    %0 = arith.index_cast %arg1 : i32 to index
    affine.for %arg3 = 0 to #map()[%0] {
      %1 = affine.load %arg0[%arg3] : memref<?xf32>
      %2 = arith.mulf %1, %arg2 : f32
      affine.store %2, %arg0[%arg3] : memref<?xf32>
    }
    return
  }
}
