/* A parameter that is only copied (memcpy) into a constant-size malloc buffer takes the buffer's type. */
#include <stdlib.h>
#include <string.h>

float copy_rev(const float *src, float *out, int n) {
  float *tmp = (float *)malloc(8 * sizeof(float));
  memcpy(tmp, src, 8 * sizeof(float));
  float s = 0.0f;
  for (int i = 0; i < 8; i++) {
    out[i] = tmp[7 - i] * 2.0f;
    if (i < n)
      s += tmp[i];
  }
  free(tmp);
  return s;
}
