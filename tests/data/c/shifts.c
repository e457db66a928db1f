#include <string.h>
/* memmove both ways within one array. */
void shifts(int *a, int n) {
  if (n >= 6) {
    memmove(a + 2, a, 3 * sizeof(int));
    memmove(a, a + 1, 4 * sizeof(int));
  }
}
