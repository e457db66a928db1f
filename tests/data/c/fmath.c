/* math.h on doubles and floats: fabs, sqrt, floor, fmax, and a conversion to int. */
#include <math.h>
int fmath(const double *x, float *y, int n) {
  int count = 0;
  for (int i = 0; i < n; i++) {
    double v = sqrt(fabs(x[i])) + floor(x[i]);
    y[i] = fmaxf((float)v, -1.0f);
    count += (int)v;
  }
  return count;
}
