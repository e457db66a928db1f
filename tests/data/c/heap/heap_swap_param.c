/* A scratch buffer swapped with the output parameter after every step, as upstream's pagerank_spmv ping-pongs its
   malloc'd `src` with `rank_out`: loom copies `out` in behind the scratch buffer right after the malloc, reads
   every later `out` there, and copies it back at the return. */
#include <stdlib.h>
#include <string.h>

int heap_swap_param(const int *a, int *out, int n, int steps) {
  int *src = (int *)malloc((size_t)n * sizeof(int));
  int *dst = out;
  if (!src)
    return -1;
  memcpy(src, a, (size_t)n * sizeof(int));
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      dst[i] = src[i] * 2 + (i > 0 ? src[i - 1] : s) - (out[0] & 7);
    int *tmp = src;
    src = dst;
    dst = tmp;
  }
  if (dst == out) /* the last step wrote the scratch buffer */
    memcpy(out, src, (size_t)n * sizeof(int));
  int first = n > 0 ? out[0] : 0;
  free(dst == out ? src : dst);
  return first;
}
