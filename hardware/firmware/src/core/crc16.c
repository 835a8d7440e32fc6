#include "crc16.h"

uint16_t crc16_ccitt(uint16_t crc, const uint8_t *data, uint16_t length)
{
    /* Bitwise, no table: 512 bytes of flash saved, and at 45 bytes a frame speed does not matter. */
    while (length--) {
        crc ^= (uint16_t)(*data++) << 8;
        for (uint8_t bit = 0; bit < 8; bit++)
            crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}
