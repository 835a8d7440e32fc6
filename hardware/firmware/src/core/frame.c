#include "frame.h"
#include "cobs.h"
#include "crc16.h"

void frame_parser_init(frame_parser_t *parser)
{
    parser->fill = 0;
    parser->overflowed = 0;
    parser->frames_ok = 0;
    parser->crc_errors = 0;
    parser->framing_errors = 0;
}

static uint8_t finish(frame_parser_t *parser, frame_t *frame)
{
    uint8_t decoded[FRAME_MAX_DECODED];
    int16_t length = cobs_decode(parser->buffer, parser->fill, decoded, sizeof decoded);
    if (length < FRAME_OVERHEAD || decoded[2] != (uint8_t)(length - FRAME_OVERHEAD)) {
        parser->framing_errors++;
        return 0;
    }
    uint16_t received = (uint16_t)((decoded[length - 2] << 8) | decoded[length - 1]);
    if (crc16_ccitt(CRC16_INIT, decoded, (uint16_t)(length - 2)) != received) {
        parser->crc_errors++;
        return 0;
    }
    frame->seq = decoded[0];
    frame->command = decoded[1];
    frame->length = decoded[2];
    for (uint8_t i = 0; i < frame->length; i++)
        frame->payload[i] = decoded[3 + i];
    frame->crc = received;
    parser->frames_ok++;
    return 1;
}

uint8_t frame_parser_feed(frame_parser_t *parser, uint8_t byte, frame_t *frame)
{
    if (byte == FRAME_DELIMITER) {
        uint8_t got = 0;
        if (parser->overflowed)
            parser->framing_errors++;
        else if (parser->fill > 0)
            got = finish(parser, frame);
        parser->fill = 0;
        parser->overflowed = 0;
        return got;
    }
    if (parser->overflowed)
        return 0;
    if (parser->fill >= sizeof parser->buffer) {
        parser->overflowed = 1;
        return 0;
    }
    parser->buffer[parser->fill++] = byte;
    return 0;
}

uint8_t frame_encode(uint8_t seq, uint8_t command, const uint8_t *payload, uint8_t length, uint8_t *out)
{
    uint8_t decoded[FRAME_MAX_DECODED];
    if (length > FRAME_MAX_PAYLOAD)
        length = FRAME_MAX_PAYLOAD;
    decoded[0] = seq;
    decoded[1] = command;
    decoded[2] = length;
    for (uint8_t i = 0; i < length; i++)
        decoded[3 + i] = payload[i];
    uint16_t crc = crc16_ccitt(CRC16_INIT, decoded, (uint16_t)(3 + length));
    decoded[3 + length] = (uint8_t)(crc >> 8);
    decoded[4 + length] = (uint8_t)crc;
    out[0] = FRAME_DELIMITER;
    uint16_t n = cobs_encode(decoded, (uint16_t)(length + FRAME_OVERHEAD), out + 1);
    out[1 + n] = FRAME_DELIMITER;
    return (uint8_t)(n + 2);
}
