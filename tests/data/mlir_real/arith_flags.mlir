// arith ops the way mlir-opt prints them: overflow and fastmath flags, every
// cmpf predicate, and the cast family (sitofp, fptosi, bitcast, index_cast,
// index_castui, extf, truncf, extsi, extui, trunci).
module {
  func.func @mix(%arg0: memref<?xf32>, %arg1: memref<?xi32>, %arg2: index) -> (i32, f64) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %c3_i16 = arith.constant 3 : i16
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 5.000000e-01 : f32
    %0:2 = scf.for %arg3 = %c0 to %arg2 step %c1 iter_args(%arg4 = %c0_i32, %arg5 = %cst) -> (i32, f64) {
      %1 = memref.load %arg0[%arg3] : memref<?xf32>
      %2 = memref.load %arg1[%arg3] : memref<?xi32>
      %3 = arith.sitofp %2 : i32 to f32
      %4 = arith.mulf %1, %3 fastmath<fast> : f32
      %5 = arith.addf %4, %cst_0 fastmath<nnan,ninf> : f32
      %6 = arith.fptosi %5 : f32 to i32
      %7 = arith.bitcast %1 : f32 to i32
      %8 = arith.andi %7, %c0_i32 : i32
      %9 = arith.addi %6, %8 overflow<nsw> : i32
      %10 = arith.muli %9, %2 overflow<nsw, nuw> : i32
      %11 = arith.index_cast %arg3 : index to i32
      %12 = arith.index_castui %arg3 : index to i64
      %13 = arith.trunci %12 : i64 to i16
      %14 = arith.muli %13, %c3_i16 : i16
      %15 = arith.extsi %14 : i16 to i32
      %16 = arith.extui %14 : i16 to i32
      %17 = arith.subi %15, %16 : i32
      %18 = arith.addi %10, %11 : i32
      %19 = arith.addi %18, %17 : i32
      %20 = arith.addi %arg4, %19 : i32
      %21 = arith.cmpf oeq, %1, %cst_0 : f32
      %22 = arith.cmpf ogt, %1, %cst_0 : f32
      %23 = arith.cmpf oge, %1, %cst_0 : f32
      %24 = arith.cmpf olt, %1, %cst_0 : f32
      %25 = arith.cmpf ole, %1, %cst_0 : f32
      %26 = arith.cmpf one, %1, %cst_0 : f32
      %27 = arith.cmpf ord, %1, %cst_0 : f32
      %28 = arith.cmpf ueq, %1, %cst_0 : f32
      %29 = arith.cmpf ugt, %1, %cst_0 : f32
      %30 = arith.cmpf uge, %1, %cst_0 : f32
      %31 = arith.cmpf ult, %1, %cst_0 : f32
      %32 = arith.cmpf ule, %1, %cst_0 : f32
      %33 = arith.cmpf une, %1, %cst_0 : f32
      %34 = arith.cmpf uno, %1, %cst_0 : f32
      %35 = arith.cmpf false, %1, %cst_0 : f32
      %36 = arith.cmpf true, %1, %cst_0 : f32
      %37 = arith.xori %21, %22 : i1
      %38 = arith.xori %37, %23 : i1
      %39 = arith.xori %38, %24 : i1
      %40 = arith.xori %39, %25 : i1
      %41 = arith.xori %40, %26 : i1
      %42 = arith.xori %41, %27 : i1
      %43 = arith.xori %42, %28 : i1
      %44 = arith.xori %43, %29 : i1
      %45 = arith.xori %44, %30 : i1
      %46 = arith.xori %45, %31 : i1
      %47 = arith.xori %46, %32 : i1
      %48 = arith.xori %47, %33 : i1
      %49 = arith.xori %48, %34 : i1
      %50 = arith.xori %49, %35 : i1
      %51 = arith.xori %50, %36 : i1
      %52 = arith.extf %1 : f32 to f64
      %53 = arith.truncf %52 : f64 to f32
      %54 = arith.extf %53 : f32 to f64
      %55 = arith.addf %arg5, %54 : f64
      %56 = arith.ori %39, %51 : i1
      %57 = arith.select %56, %55, %arg5 : f64
      scf.yield %20, %57 : i32, f64
    }
    return %0#0, %0#1 : i32, f64
  }
}
