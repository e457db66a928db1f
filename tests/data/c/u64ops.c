/* 64-bit unsigned shifts, division and remainder. */
unsigned long long u64ops(unsigned long long x, int s) { return (x << (s & 63)) / 7u + (x >> 3) % 10u; }
