/* Shared by both files of the program: a macro, an inline helper and the prototypes of util.c. */
#ifndef MULTI_COMMON_H
#define MULTI_COMMON_H

#define SCALE 3

static inline int clamp8(int v) { return v < -128 ? -128 : (v > 127 ? 127 : v); }

int mix(int a, int b);
void smooth(int *x, int n);

#endif
