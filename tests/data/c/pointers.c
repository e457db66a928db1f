/* Pointer walking: p++ and *q++ in a while loop ended by p != end, and a pointer chosen by ?: into a const table. */
static const int W[4] = {1, 2, 3, 4};
int pointers(const int *a, int *out, int n) {
  const int *p = a, *end = a + n;
  int *q = out;
  int s = 0;
  while (p != end) {
    *q++ = *p * 2;
    s += *p++;
  }
  const int *w = n > 2 ? W + 1 : W;
  for (int k = 0; k < 3; k++) s += w[k];
  return s;
}
