/* Helpers of mix_sum.c, in a file of their own. */
#include "common.h"

static int twice(int v) { return v + v + 1; }

int mix(int a, int b) { return clamp8(twice(a) - b) * SCALE; }

void smooth(int *x, int n) {
    for (int i = 1; i < n; i++)
        x[i] = (x[i - 1] + x[i]) / 2;
}
