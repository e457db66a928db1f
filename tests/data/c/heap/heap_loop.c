/* A helper's calloc ... free on every iteration: one buffer the host allocates, reused by each iteration
   (loom/lower/host_alloc.py). */
#include <stdlib.h>

static int count_le(const int *a, int n, int v) {
  int *seen = (int *)calloc((size_t)n, sizeof(int));
  int c = 0;
  for (int j = 0; j < n; j++) {
    seen[j] += a[j] <= v;
    c += seen[j];
  }
  free(seen);
  return c;
}

void heap_loop(const int *a, int *rank, int n) {
  for (int i = 0; i < n; i++)
    rank[i] = count_le(a, n, a[i]);
}
