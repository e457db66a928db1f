/* Mixed widths: unsigned 8-bit pixels brightened with saturation, a 16-bit gain, a signed 8-bit offset. */
#include <stdint.h>
uint32_t sat_u8(uint8_t *px, const int8_t *off, uint16_t gain, int n) {
  uint32_t clipped = 0;
  for (int i = 0; i < n; i++) {
    uint16_t scaled = (uint16_t)((px[i] * (uint32_t)(gain & 0x3FF)) >> 8);
    int v = (int)scaled + off[i];
    if (v > 255) { v = 255; clipped++; }
    if (v < 0) { v = 0; clipped += 0x10000u; }
    px[i] = (uint8_t)v;
  }
  return clipped;
}
