/* Sums over a 3-D array: per-plane sums written out, the total returned. */
int cube(int V[4][3][5], int *plane) {
  int total = 0;
  for (int p = 0; p < 4; p++) {
    int s = 0;
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 5; c++)
        s += V[p][r][c];
    plane[p] = s;
    total += s;
  }
  return total;
}
