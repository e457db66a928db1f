/* A struct passed by value to an inlined helper: clang copies both fields at the call, so the two loads of each
   struct (and the two stores of the result) share the call's C position (12:38); the front end names the k-th
   access at one position (loc("access k"(...))), so loom verify pairs each with the DFG op lowered from it. */
typedef struct { float re, im; } cplx;

static cplx mul(cplx a, cplx b) {
  cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}

void struct_copies(const cplx *x, const cplx *y, cplx *z, int n) {
  for (int i = 0; i < n; i++) z[i] = mul(x[i], y[i]);
}
