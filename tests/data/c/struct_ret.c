/* Structs of equal scalars returned (upstream's msm_*): the ABI's { i64, i32 } and { <2 x float>, float } are
   the function's three results; a helper takes and returns them by value. */
typedef struct { unsigned x, y; int inf; } pt;
static pt add(pt p, pt q) {
  if (p.inf) return q;
  if (q.inf) return p;
  pt r; r.x = p.x + q.x; r.y = p.y ^ q.y; r.inf = 0; return r;
}
pt struct_ret(const pt *p, int n) {
  pt acc = {0, 0, 1};
  for (int i = 0; i < n; i++) acc = add(acc, p[i]);
  return acc;
}
typedef struct { float a, b, c; } v3;
v3 fsum(const float *x, int n) {
  v3 r = {0.0f, 1.0f, 0.0f};
  for (int i = 0; i < n; i++) { r.a += x[i]; r.b *= x[i]; r.c = x[i] > r.c ? x[i] : r.c; }
  return r;
}
