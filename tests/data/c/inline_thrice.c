/* One static helper with a load, inlined three times in one loop: the three copies of the load share the
   helper's C position (5:10); the front end marks each with the call it was inlined at (a callsite location),
   so loom verify pairs each SCF copy with its own DFG copy. */
static int tap(const int *x, int i, int w) {
  return x[i] * w;
}

int inline_thrice(const int *x, int *y, int n) {
  int s = 0;
  for (int i = 0; i + 2 < n; i++) {
    int v = tap(x, i, 3) + tap(x, i + 1, 5) + tap(x, i + 2, 7);
    y[i] = v;
    s += v;
  }
  return s;
}
