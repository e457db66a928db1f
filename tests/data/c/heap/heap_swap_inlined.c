/* A helper that ping-pongs a scratch buffer with its output parameter, inlined into a caller that passes its own
   malloc'd buffer (as upstream's graph_pipeline inlines pagerank_spmv): the helper's buffer gets room for the
   caller's behind it, and every later access of the caller's buffer reads that copy. */
#include <stdlib.h>
#include <string.h>

static void smooth(const int *in, int *out, int n, int steps) {
  int *src = (int *)malloc((size_t)n * sizeof(int));
  int *dst = out;
  memcpy(src, in, (size_t)n * sizeof(int));
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      dst[i] = src[i] + (i + 1 < n ? src[i + 1] : s);
    int *t = src;
    src = dst;
    dst = t;
  }
  if (dst == out)
    memcpy(out, src, (size_t)n * sizeof(int));
  free(dst == out ? src : dst);
}

int heap_swap_inlined(const int *a, int *res, int n) {
  int *tmp = (int *)malloc((size_t)n * sizeof(int));
  for (int i = 0; i < n; i++)
    tmp[i] = -1;
  smooth(a, tmp, n, 3);
  int sum = 0;
  for (int i = 0; i < n; i++) {
    res[i] = tmp[i];
    sum += tmp[i];
  }
  free(tmp);
  return sum;
}
