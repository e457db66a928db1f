/* CRC-8 (polynomial 0x07) by nibbles through a 16-entry const table; the running CRC after each byte is
   stored. */
#include <stdint.h>
static const uint8_t CRC8_NIBBLE[16] = {0x00, 0x07, 0x0E, 0x09, 0x1C, 0x1B, 0x12, 0x15,
                                        0x38, 0x3F, 0x36, 0x31, 0x24, 0x23, 0x2A, 0x2D};
uint8_t crc8(const uint8_t *data, uint8_t *trace, int n) {
  uint8_t crc = 0;
  for (int i = 0; i < n; i++) {
    crc ^= data[i];
    crc = (uint8_t)(crc << 4) ^ CRC8_NIBBLE[crc >> 4];
    crc = (uint8_t)(crc << 4) ^ CRC8_NIBBLE[crc >> 4];
    trace[i] = crc;
  }
  return crc;
}
