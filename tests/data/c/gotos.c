/* A loop written with goto. */
int gotos(int *a, int n) { int i = 0; loop: if (i >= n) goto done; a[i] *= 2; i++; goto loop; done: return i; }
