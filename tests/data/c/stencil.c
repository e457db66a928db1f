/* A 3-point stencil with clamped borders on doubles. */
void stencil(const double *in, double *out, int n) {
  for (int i = 0; i < n; i++) {
    double l = i > 0 ? in[i - 1] : in[i];
    double r = i + 1 < n ? in[i + 1] : in[i];
    out[i] = 0.25 * l + 0.5 * in[i] + 0.25 * r;
  }
}
