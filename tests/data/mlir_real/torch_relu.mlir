// torch-mlir -> linalg -> one-shot-bufferize -> convert-linalg-to-loops, as
// mlir-opt prints it: an aligned alloc, nested scf.for over a 2-D buffer,
// a cf.assert shape check, and a memref.copy into the output argument.
module attributes {torch.debug_module_name = "Relu"} {
  func.func @forward(%arg0: memref<2x3xf32>, %arg1: memref<2x3xf32>, %arg2: index) {
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = arith.cmpi eq, %arg2, %c2 : index
    cf.assert %0, "mismatching dimension 0 of the input"
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
    scf.for %arg3 = %c0 to %c2 step %c1 {
      scf.for %arg4 = %c0 to %c3 step %c1 {
        %1 = memref.load %arg0[%arg3, %arg4] : memref<2x3xf32>
        %2 = arith.cmpf ugt, %1, %cst : f32
        %3 = arith.select %2, %1, %cst : f32
        memref.store %3, %alloc[%arg3, %arg4] : memref<2x3xf32>
      }
    }
    memref.copy %alloc, %arg1 : memref<2x3xf32> to memref<2x3xf32>
    memref.dealloc %alloc : memref<2x3xf32>
    return
  }
}
