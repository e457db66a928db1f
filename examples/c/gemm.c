/* C = A * B on fixed-size 8x8 matrices; returns the trace of C. */
#define N 8
static int mac(int acc, int a, int b) { return acc + a * b; }

int gemm(int A[N][N], int B[N][N], int C[N][N]) {
  int trace = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int acc = 0;
      for (int k = 0; k < N; k++)
        acc = mac(acc, A[i][k], B[k][j]);
      C[i][j] = acc;
      if (i == j)
        trace += acc;
    }
  return trace;
}
