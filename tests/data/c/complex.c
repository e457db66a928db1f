/* Structs of equal scalars (a complex type) passed by pointer and, to inlined helpers, by value. */
typedef struct { float re; float im; } cmplx_t;

static inline cmplx_t cmul(cmplx_t a, cmplx_t b) {
  cmplx_t c;
  c.re = a.re * b.re - a.im * b.im;
  c.im = a.re * b.im + a.im * b.re;
  return c;
}

float complex(const cmplx_t *x, const cmplx_t *h, cmplx_t *y, int n) {
  float energy = 0.0f;
  for (int i = 0; i < n; i++) {
    y[i] = cmul(x[i], h[i]);
    energy += y[i].re * y[i].re + y[i].im * y[i].im;
  }
  if (n > 1)
    y[0] = y[n - 1];
  return energy;
}
