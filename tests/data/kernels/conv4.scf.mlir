// A 2D convolution ("valid" padding), four nested loops: out[i][j] = sum over p < kh, q < kw of
// in[i+p][j+q] * w[p][q], with kh x kw = the filter's size and oh x ow = the input's size minus the filter's
// plus one. The largest kernel of tests/test_verify_determinism.py: its BMC cross-check explores about half a
// million states (proved in ~3 s on an idle machine; it was unknown under load when a 10 s clock decided).
module {
  func.func @conv4(%in: memref<?x?xi32>, %w: memref<?x?xi32>, %out: memref<?x?xi32>) attributes {loom.assume = ["dim(w, 0) >= 1 && dim(w, 1) >= 1 && dim(out, 0) >= dim(in, 0) && dim(out, 1) >= dim(in, 1)"]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %ih = memref.dim %in, %c0 : memref<?x?xi32>
    %iw = memref.dim %in, %c1 : memref<?x?xi32>
    %kh = memref.dim %w, %c0 : memref<?x?xi32>
    %kw = memref.dim %w, %c1 : memref<?x?xi32>
    %dh = arith.subi %ih, %kh : index
    %dw = arith.subi %iw, %kw : index
    %oh = arith.addi %dh, %c1 : index
    %ow = arith.addi %dw, %c1 : index
    scf.for %i = %c0 to %oh step %c1 {
      scf.for %j = %c0 to %ow step %c1 {
        %acc = scf.for %p = %c0 to %kh step %c1 iter_args(%a0 = %zero) -> (i32) {
          %row = scf.for %q = %c0 to %kw step %c1 iter_args(%a1 = %a0) -> (i32) {
            %y = arith.addi %i, %p : index
            %x = arith.addi %j, %q : index
            %v = memref.load %in[%y, %x] : memref<?x?xi32>
            %k = memref.load %w[%p, %q] : memref<?x?xi32>
            %m = arith.muli %v, %k : i32
            %s = arith.addi %a1, %m : i32
            scf.yield %s : i32
          }
          scf.yield %row : i32
        }
        memref.store %acc, %out[%i, %j] : memref<?x?xi32>
      }
    }
    return
  }
}
