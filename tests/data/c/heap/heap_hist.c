/* A zeroed table of a constant size (calloc): a static memref, so it reaches the DFG. */
#include <stdlib.h>
#define BINS 8

int heap_hist(const int *a, int *out, int n) {
  int *h = (int *)calloc(BINS, sizeof(int));
  if (h == NULL)
    return -1;
  for (int i = 0; i < n; i++)
    h[a[i] & (BINS - 1)]++;
  int best = 0;
  for (int b = 0; b < BINS; b++) {
    out[b] = h[b];
    if (h[b] > h[best])
      best = b;
  }
  free(h);
  return best;
}
