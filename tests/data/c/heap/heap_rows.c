/* Scratch sized by the parameters: a calloc'd 2-D buffer (rows of 4) and a variable-length array. The DFG
   gets both from the host (loom/lower/host_alloc.py). */
#include <stdlib.h>

float heap_rows(const float *x, float *y, int n) {
  float (*acc)[4] = calloc((size_t)n, sizeof *acc);
  int order[n + 1];
  for (int i = 0; i < n; i++) {
    order[i] = n - 1 - i;
    for (int k = 0; k < 4; k++)
      acc[i][k] += x[i] * (float)(k + 1);
  }
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    y[i] = acc[order[i]][i % 4];
    s += y[i];
  }
  free(acc);
  return s;
}
