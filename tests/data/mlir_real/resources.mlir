// A dense_resource global with its blob in the file metadata section that
// mlir-opt prints at the end of the file ({-# dialect_resources ... #-}); the
// blob is 4 alignment bytes, then the elements little-endian.
module {
  memref.global "private" constant @table : memref<5xi32> = dense_resource<table_blob> {alignment = 64 : i64}
  memref.global "private" constant @scale : memref<2xf32> = dense_resource<"scale.f32"> {alignment = 64 : i64}
  func.func @lookup(%arg0: memref<?xindex>, %arg1: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = memref.get_global @table : memref<5xi32>
    %1 = memref.get_global @scale : memref<2xf32>
    %2 = memref.load %1[%c1] : memref<2xf32>
    %3 = scf.for %arg2 = %c0 to %arg1 step %c1 iter_args(%arg3 = %cst) -> (f32) {
      %4 = memref.load %arg0[%arg2] : memref<?xindex>
      %5 = memref.load %0[%4] : memref<5xi32>
      %6 = arith.sitofp %5 : i32 to f32
      %7 = arith.mulf %6, %2 : f32
      %8 = arith.addf %arg3, %7 : f32
      scf.yield %8 : f32
    }
    return %3 : f32
  }
}

{-#
  dialect_resources: {
    builtin: {
      table_blob: "0x04000000040000000A00000014000000E2FFFFFF28000000",
      "scale.f32": "0x040000000000803F00000040"
    }
  }
#-}
