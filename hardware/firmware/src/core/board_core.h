/* The board's behaviour in plain C: protocol session, display, buzzer queue,
 * countdown scheduler, duplicate cache and heartbeat. No AVR dependency: the
 * AVR glue (src/avr/main.c) feeds it received bytes and the millisecond clock
 * and drives pins from core_outputs(); the host build is tested from pytest. */
#ifndef SPIT_BOARD_CORE_H
#define SPIT_BOARD_CORE_H
#include <stdint.h>
#include "frame.h"
#include "protocol.h"

#define CORE_TX_CAPACITY 192   /* bytes of queued outgoing frames; a whole frame or nothing */
#define CORE_DUPLICATE_SLOTS 4 /* recent responses kept to answer retransmissions */
#define CORE_NOTE_SLOTS 8      /* buzzer notes queued */
#define FRAME_WIRE_MAX (FRAME_MAX_ENCODED + 2)

typedef struct {
    uint8_t pattern;
    uint32_t since_ms;    /* blink phase starts here, so a blink starts lit */
    uint32_t until_ms;    /* back to off at this time, when timed */
    uint8_t timed;
} light_t;

typedef struct {
    uint16_t frequency_hz; /* 0 = rest */
    uint16_t duration_ms;
} note_t;

typedef struct {
    uint8_t used;
    uint8_t seq;
    uint16_t request_crc;
    uint8_t length;
    uint8_t bytes[FRAME_WIRE_MAX];
} cached_response_t;

typedef struct {
    uint16_t lights;       /* bit i = light i lit now */
    uint16_t tone_hz;      /* 0 = buzzer quiet */
} core_outputs_t;

typedef struct {
    frame_parser_t parser;
    light_t lights[LIGHT_COUNT];
    note_t notes[CORE_NOTE_SLOTS];
    uint8_t note_count;
    uint32_t note_started_ms;
    uint8_t countdown_running;
    uint8_t countdown_next;      /* 0..3: steps "3", "2", "1", "spit" */
    uint16_t countdown_step_ms;
    uint32_t countdown_start_ms;
    uint32_t centre_flash_until; /* countdown flash overrides the centre light */
    uint8_t centre_flash;
    uint8_t self_test;
    uint16_t self_test_step_ms;
    uint32_t self_test_start_ms;
    uint8_t session;
    uint8_t safe;
    uint32_t last_frame_ms;
    uint32_t boot_ms;
    uint32_t now_ms;
    uint16_t boot_id;
    uint16_t self_test_failures; /* bit i: light i did not read back at power-up */
    uint16_t executed;           /* commands executed (not answered from the cache) */
    uint16_t duplicates;         /* retransmissions answered from the cache */
    uint16_t tx_dropped;         /* frames dropped because the transmit queue was full */
    cached_response_t cache[CORE_DUPLICATE_SLOTS];
    uint8_t cache_next;
    uint8_t tx[CORE_TX_CAPACITY];
    uint16_t tx_head, tx_count;
} board_core_t;

uint16_t core_sizeof(void);
/* Starts the board: queues a HELLO frame. */
void core_init(board_core_t *core, uint16_t boot_id, uint16_t self_test_failures, uint32_t now_ms);
void core_rx_byte(board_core_t *core, uint8_t byte, uint32_t now_ms);
/* Runs timers (countdown, heartbeat, light expiry, notes). Call at least every few ms. */
void core_tick(board_core_t *core, uint32_t now_ms);
/* Next byte to transmit, or -1. */
int16_t core_tx_pop(board_core_t *core);
uint16_t core_tx_take(board_core_t *core, uint8_t *out, uint16_t capacity);
void core_outputs(const board_core_t *core, uint32_t now_ms, core_outputs_t *out);
/* Effective pattern of each light now (after expiry), for status reports and tests. */
uint8_t core_light_pattern(const board_core_t *core, uint8_t light, uint32_t now_ms);
/* Starts the visible and audible self-test pattern (each light in turn for step_ms, then all
 * lights, with a rising scale; quick = one chirp, for power-up); returns its length in ms. */
uint16_t core_start_self_test(board_core_t *core, uint32_t now_ms, uint16_t step_ms, uint8_t quick);
#define SELF_TEST_STEP_MS 120u
#define BOOT_SELF_TEST_STEP_MS 40u

#endif
