/* A counting do-while: runs once even when n <= 0. */
int dowhile_count(int *a, int n) {
  int i = 0, s = 0;
  do { s += a[i]; a[i] = s; i++; } while (i < n);
  return s;
}
