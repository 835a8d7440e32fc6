#ifndef SPIT_COBS_H
#define SPIT_COBS_H
#include <stdint.h>
/* Consistent Overhead Byte Stuffing: removes every 0x00 so 0x00 can delimit frames.
 * cobs_encode writes at most length + length/254 + 1 bytes and returns how many.
 * cobs_decode returns the decoded length, or -1 if the input is not valid COBS. */
uint16_t cobs_encode(const uint8_t *input, uint16_t length, uint8_t *output);
int16_t cobs_decode(const uint8_t *input, uint16_t length, uint8_t *output, uint16_t capacity);
#endif
