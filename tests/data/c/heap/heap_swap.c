/* Two malloc'd buffers swapped after every step (tmp = cur; cur = nxt; nxt = tmp), as a level-synchronous BFS
   swaps its frontiers: loom allocates them as the two halves of one buffer and swaps a start index. */
#include <stdlib.h>

int heap_swap(const int *a, int *out, int n, int steps) {
  int *cur = (int *)malloc((size_t)n * sizeof(int));
  int *nxt = (int *)malloc((size_t)n * sizeof(int));
  if (!cur || !nxt)
    return -1;
  for (int i = 0; i < n; i++)
    cur[i] = a[i];
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      nxt[i] = cur[i] * 3 + (i > 0 ? cur[i - 1] : s);
    int *tmp = cur;
    cur = nxt;
    nxt = tmp;
  }
  for (int i = 0; i < n; i++)
    out[i] = cur[i] - nxt[i];
  free(cur);
  free(nxt);
  return steps;
}
