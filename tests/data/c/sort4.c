/* A sorting network on each whole group of 4 of the n elements, with a local array and a helper. */
static void cx(int *v, int a, int b) {
  if (v[a] > v[b]) { int t = v[a]; v[a] = v[b]; v[b] = t; }
}

void sort4(int *data, int n) {
  int v[4];
  for (int g = 0; g + 4 <= n; g += 4) {
    for (int k = 0; k < 4; k++) v[k] = data[g + k];
    cx(v, 0, 1); cx(v, 2, 3); cx(v, 0, 2); cx(v, 1, 3); cx(v, 1, 2);
    for (int k = 0; k < 4; k++) data[g + k] = v[k];
  }
}
