#include "cobs.h"

uint16_t cobs_encode(const uint8_t *input, uint16_t length, uint8_t *output)
{
    uint16_t code_index = 0, out = 1;
    uint8_t code = 1;
    for (uint16_t i = 0; i < length; i++) {
        if (input[i] == 0) {
            output[code_index] = code;
            code_index = out++;
            code = 1;
        } else {
            output[out++] = input[i];
            if (++code == 0xFF) {
                output[code_index] = code;
                code_index = out++;
                code = 1;
            }
        }
    }
    output[code_index] = code;
    return out;
}

int16_t cobs_decode(const uint8_t *input, uint16_t length, uint8_t *output, uint16_t capacity)
{
    uint16_t in = 0, out = 0;
    while (in < length) {
        uint8_t code = input[in++];
        if (code == 0)
            return -1;
        for (uint8_t i = 1; i < code; i++) {
            if (in >= length || input[in] == 0 || out >= capacity)
                return -1;
            output[out++] = input[in++];
        }
        if (code != 0xFF && in < length) {
            if (out >= capacity)
                return -1;
            output[out++] = 0;
        }
    }
    return (int16_t)out;
}
