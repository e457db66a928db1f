// C++ input: a function template and a reference parameter, inlined into the kernel.
#include <cstdint>

template <typename T>
static T clampv(T v, T lo, T hi) { return v < lo ? lo : (v > hi ? hi : v); }

static void bump(int32_t &s, int32_t v) { s += v; }

int32_t templ(const int32_t *a, int16_t *out, int n) {
  int32_t s = 0;
  for (int i = 0; i < n; ++i) {
    out[i] = static_cast<int16_t>(clampv<int32_t>(a[i], -100, 100));
    bump(s, out[i]);
  }
  return s;
}
