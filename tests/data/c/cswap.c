/* Reverses an array of complex numbers in place through a local struct temporary (a swap helper). */
typedef struct { float re, im; } cplx_t;

static void swap(cplx_t *a, int i, int j) {
  cplx_t t = a[i];
  a[i] = a[j];
  a[j] = t;
}

float cswap(cplx_t *z, int n) {
  for (int i = 0, j = n - 1; i < j; i++, j--)
    swap(z, i, j);
  return n > 0 ? z[0].re - z[0].im : 0.0f;
}
