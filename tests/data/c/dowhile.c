/* A do-while loop, continue, a switch and unsigned counting down. */
int dowhile(int *a, unsigned n) {
  int s = 0;
  unsigned i = n;
  if (n == 0) return 0;
  do {
    i--;
    if (a[i] == 0) continue;
    switch (a[i] & 3) {
      case 0: s += 1; break;
      case 1: s -= a[i]; break;
      case 2: s ^= a[i]; break;
      default: s *= 2; break;
    }
  } while (i > 0);
  return s;
}
