// Vector values (what --convert-linalg-to-loops plus vectorization leaves):
// loom parses and prints them, but its interpreter and lowering handle scalars
// only.
module {
  func.func @vadd(%arg0: vector<4xf32>, %arg1: vector<4xf32>) -> vector<4xf32> {
    %cst = arith.constant dense<1.000000e+00> : vector<4xf32>
    %0 = arith.addf %arg0, %arg1 fastmath<contract> : vector<4xf32>
    %1 = arith.mulf %0, %cst : vector<4xf32>
    return %1 : vector<4xf32>
  }
}
