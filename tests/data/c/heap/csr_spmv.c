/* A sparse matrix-vector product through a CSR struct whose members are pointers (csr_graph_t style). */
typedef struct {
  int rows;
  int nnz; /* never read: not a parameter */
  const int *row_ptr;
  const int *col;
  const float *val;
} csr_t;

void csr_spmv(const csr_t *m, const float *x, float *y) {
  for (int i = 0; i < m->rows; i++) {
    float acc = 0.0f;
    int lo = m->row_ptr[i] & 7, hi = m->row_ptr[i + 1] & 7;
    for (int k = lo; k < hi; k++)
      acc += m->val[k] * x[m->col[k] & 7];
    y[i] = acc;
  }
}
