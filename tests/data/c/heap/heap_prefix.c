/* A scratch buffer sized by a parameter (malloc), checked against NULL and freed. */
#include <stdlib.h>

int heap_prefix(const int *a, int *out, int n) {
  int *tmp = (int *)malloc((size_t)n * sizeof(int));
  if (!tmp)
    return -1;
  int s = 0;
  for (int i = 0; i < n; i++) {
    s += a[i];
    tmp[i] = s;
  }
  for (int i = 0; i < n; i++)
    out[i] = tmp[n - 1 - i];
  free(tmp);
  return s;
}
