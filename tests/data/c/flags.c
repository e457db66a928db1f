/* bool values and arrays, unsigned char arithmetic that wraps, and a ?: on floats. */
#include <stdbool.h>
int flags(const float *x, bool *pos, unsigned char *cnt, int n) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    bool p = x[i] > 0.0f;
    pos[i] = p;
    cnt[i] = (unsigned char)(cnt[i] + 200);
    k += p ? 1 : (x[i] < -2.0f ? -1 : 0);
  }
  return k;
}
