/* One static helper with a load and a division, inlined twice: both copies carry the helper's C position, so
   loom verify numbers the second copy's safety IDs #2, and each RTL monitor must name its own copy's ID. */
static int quot(const int *a, int i, int d) { return a[i] / d; }

int inline_div(const int *a, int i, int d, int e) { return quot(a, i, d) + quot(a, i + 1, e); }
