/* A histogram of 8 bins over the low 3 bits of each sample; returns the number of odd samples. */
int histogram(const unsigned char *x, int *hist, int n) {
  int odd = 0;
  for (int b = 0; b < 8; b++) hist[b] = 0;
  for (int i = 0; i < n; i++) {
    hist[x[i] & 7]++;
    odd += x[i] & 1;
  }
  return odd;
}
