/* The first index i < n with a[i] == key, or -1: a while loop that stops early. */
int find_first(const int *a, int n, int key) {
  int i = 0;
  int found = -1;
  while (i < n && found < 0) {
    if (a[i] == key)
      found = i;
    i++;
  }
  return found;
}
