#ifndef SPIT_FRAME_H
#define SPIT_FRAME_H
#include <stdint.h>
#include "protocol.h"

typedef struct {
    uint8_t seq;
    uint8_t command;
    uint8_t length;
    uint8_t payload[FRAME_MAX_PAYLOAD];
    uint16_t crc; /* as received: the duplicate cache keys on (seq, crc) */
} frame_t;

/* Byte-at-a-time frame receiver: collects bytes up to a 0x00 delimiter, then
 * COBS-decodes, checks length and CRC. Garbage, truncation and overflow only
 * cost the frame they hit: the next delimiter starts afresh. */
typedef struct {
    uint8_t buffer[FRAME_MAX_ENCODED];
    uint8_t fill;
    uint8_t overflowed;
    uint16_t frames_ok;
    uint16_t crc_errors;
    uint16_t framing_errors; /* bad COBS, too long, too short, length byte disagrees */
} frame_parser_t;

void frame_parser_init(frame_parser_t *parser);
/* Returns 1 and fills *frame when `byte` completes a valid frame, else 0. */
uint8_t frame_parser_feed(frame_parser_t *parser, uint8_t byte, frame_t *frame);
/* Encodes [delimiter][COBS(seq, command, length, payload, crc)][delimiter] into out
 * (capacity FRAME_MAX_ENCODED + 2) and returns the byte count. */
uint8_t frame_encode(uint8_t seq, uint8_t command, const uint8_t *payload, uint8_t length, uint8_t *out);

#endif
