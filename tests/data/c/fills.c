/* memset, a local table copied from its initializer (memcpy), memmove within an array. */
#include <string.h>
int fills(int *acc, short *s, int n) {
  int w[6] = {5, -3, 8, 1, -7, 2};
  memset(acc, 0, 8 * sizeof(int));
  for (int i = 0; i < n; i++)
    acc[i & 7] += s[i] * w[i % 6];
  memmove(s + 1, s, 4 * sizeof(short));
  int t = 0;
  for (int i = 0; i < 8; i++) t += acc[i];
  return t;
}
