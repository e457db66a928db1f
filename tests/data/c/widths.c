/* Mixed widths and signedness: int8 * int16 accumulated in int64, unsigned shifts and division. */
#include <stdint.h>
long long widths(const int8_t *a, const int16_t *b, uint32_t *u, int n) {
  int64_t acc = 0;
  for (int i = 0; i < n; i++) {
    acc += (int64_t)a[i] * b[i];
    u[i] = (u[i] >> 3) / 5u + (uint32_t)(a[i] < 0) + (u[i] % 7u);
  }
  return acc;
}
