/* One static helper with a loop, inlined twice: both copies of the loop carry the helper's C position, and loom
   verify pairs each SCF copy with its DFG copy by the op's own location. */
static unsigned pw(unsigned b, int e) {
  unsigned r = 1;
  while (e > 0) {
    r = r * b + 1u;
    e -= 2;
  }
  return r;
}

unsigned inline_twice(unsigned *a, int n) {
  a[0] = pw(a[1], n);
  a[2] = pw(a[3], n + 1);
  return a[0] ^ a[2];
}
