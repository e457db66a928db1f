/* A graph struct mixing scalar and pointer members, a member read in a helper, and a static scratch row. */
#include <stdlib.h>

typedef struct {
  int num_vertices;
  int num_edges;
  int *row_ptr;
  int *col_idx;
} graph_t;

static int degree(const graph_t *g, int v) { return g->row_ptr[v + 1] - g->row_ptr[v]; }

long long graph_degree(const graph_t *g, int *deg) {
  long long total = 0;
  if (!g || !g->row_ptr)
    return -1;
  int *seen = (int *)calloc(8, sizeof(int));
  for (int v = 0; v < g->num_vertices; v++) {
    int d = degree(g, v);
    deg[v] = d;
    total += d;
    seen[g->col_idx[v] & 7] += 1;
  }
  for (int k = 0; k < 8; k++)
    total = total * 3 + seen[k];
  free(seen);
  return total;
}
