/* The Euclidean norm of x, and |x[i]| written to y. */
#include <math.h>

float norm(const float *x, float *y, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    y[i] = fabsf(x[i]);
    s += x[i] * x[i];
  }
  return sqrtf(s);
}
