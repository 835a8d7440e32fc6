#ifndef SPIT_CRC16_H
#define SPIT_CRC16_H
#include <stdint.h>
/* CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final xor.
 * crc16_ccitt(0xFFFF, "123456789", 9) == 0x29B1. */
#define CRC16_INIT 0xFFFFu
uint16_t crc16_ccitt(uint16_t crc, const uint8_t *data, uint16_t length);
#endif
