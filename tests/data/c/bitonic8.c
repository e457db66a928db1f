/* A bitonic sorting network over 8 elements (its compare-exchange partners computed with XOR), ascending. */
void bitonic8(int v[8]) {
  for (int k = 2; k <= 8; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = 0; i < 8; i++) {
        int l = i ^ j;
        if (l > i) {
          int up = (i & k) == 0;
          if ((up && v[i] > v[l]) || (!up && v[i] < v[l])) {
            int t = v[i];
            v[i] = v[l];
            v[l] = t;
          }
        }
      }
    }
  }
}
