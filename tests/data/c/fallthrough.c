/* A switch whose case falls through. */
int fallthrough(int *a, int n) { int s = 0; switch (n) { case 0: s = 1; case 1: s += 2; break; default: s = a[0]; } return s; }
