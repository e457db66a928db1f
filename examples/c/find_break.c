/* The first index i < n with a[i] == key, or -1, with break. */
int find_break(const int *a, int n, int key) {
  int found = -1;
  for (int i = 0; i < n; i++) {
    if (a[i] == key) {
      found = i;
      break;
    }
  }
  return found;
}
