#include "board_core.h"
#include "crc16.h"

#define SELF_TEST_ALL_MS 300u
#define SPIT_FLASH_MS 1000u
#define ORPHAN_PERIOD_MASK 2047u /* no host: centre light blinks 64 ms every 2.048 s */
#define ORPHAN_ON_MS 64u

uint16_t core_sizeof(void) { return (uint16_t)sizeof(board_core_t); }

static void put_u16(uint8_t *at, uint16_t value) { at[0] = (uint8_t)(value >> 8); at[1] = (uint8_t)value; }
static void put_u32(uint8_t *at, uint32_t value)
{
    at[0] = (uint8_t)(value >> 24); at[1] = (uint8_t)(value >> 16);
    at[2] = (uint8_t)(value >> 8); at[3] = (uint8_t)value;
}
static uint16_t get_u16(const uint8_t *at) { return (uint16_t)((at[0] << 8) | at[1]); }

/* ---- transmit queue: whole frames or nothing ---- */

static uint8_t tx_push_frame(board_core_t *core, const uint8_t *bytes, uint8_t length)
{
    if ((uint16_t)(CORE_TX_CAPACITY - core->tx_count) < length) {
        core->tx_dropped++;
        return 0;
    }
    for (uint8_t i = 0; i < length; i++) {
        uint16_t at = (uint16_t)((core->tx_head + core->tx_count) % CORE_TX_CAPACITY);
        core->tx[at] = bytes[i];
        core->tx_count++;
    }
    return 1;
}

int16_t core_tx_pop(board_core_t *core)
{
    if (core->tx_count == 0)
        return -1;
    uint8_t byte = core->tx[core->tx_head];
    core->tx_head = (uint16_t)((core->tx_head + 1) % CORE_TX_CAPACITY);
    core->tx_count--;
    return byte;
}

uint16_t core_tx_take(board_core_t *core, uint8_t *out, uint16_t capacity)
{
    uint16_t n = 0;
    while (n < capacity && core->tx_count > 0)
        out[n++] = (uint8_t)core_tx_pop(core);
    return n;
}

static void send(board_core_t *core, uint8_t seq, uint8_t command, const uint8_t *payload, uint8_t length)
{
    uint8_t wire[FRAME_WIRE_MAX];
    uint8_t n = frame_encode(seq, command, payload, length, wire);
    tx_push_frame(core, wire, n);
}

/* `at_ms`: when it happened by the board's clock (a countdown step reports its scheduled
 * moment, not the tick that noticed it, so a late tick does not blur the reported rhythm). */
static void send_event_at(board_core_t *core, uint8_t kind, uint8_t argument, uint32_t at_ms)
{
    uint8_t payload[6];
    payload[0] = kind;
    payload[1] = argument;
    put_u32(payload + 2, at_ms - core->boot_ms);
    send(core, 0, BOARD_EVENT, payload, sizeof payload);
}

static void send_event(board_core_t *core, uint8_t kind, uint8_t argument)
{
    send_event_at(core, kind, argument, core->now_ms);
}

/* ---- display and buzzer ---- */

static void lights_off(board_core_t *core)
{
    for (uint8_t i = 0; i < LIGHT_COUNT; i++) {
        core->lights[i].pattern = PATTERN_OFF;
        core->lights[i].timed = 0;
    }
}

static void notes_clear(board_core_t *core) { core->note_count = 0; }

static void notes_add(board_core_t *core, uint16_t frequency_hz, uint16_t duration_ms)
{
    if (core->note_count >= CORE_NOTE_SLOTS)
        return; /* a full queue means a flood: later notes are noise, drop them */
    if (core->note_count == 0)
        core->note_started_ms = core->now_ms;
    core->notes[core->note_count].frequency_hz = frequency_hz;
    core->notes[core->note_count].duration_ms = duration_ms;
    core->note_count++;
}

static void notes_play_now(board_core_t *core, uint16_t frequency_hz, uint16_t duration_ms)
{
    notes_clear(core);
    notes_add(core, frequency_hz, duration_ms);
}

static void notes_advance(board_core_t *core)
{
    while (core->note_count > 0 &&
           (uint32_t)(core->now_ms - core->note_started_ms) >= core->notes[0].duration_ms) {
        core->note_started_ms += core->notes[0].duration_ms;
        for (uint8_t i = 1; i < core->note_count; i++)
            core->notes[i - 1] = core->notes[i];
        core->note_count--;
    }
}

uint8_t core_light_pattern(const board_core_t *core, uint8_t light, uint32_t now_ms)
{
    if (light >= LIGHT_COUNT)
        return PATTERN_OFF;
    const light_t *l = &core->lights[light];
    if (l->timed && (int32_t)(now_ms - l->until_ms) >= 0)
        return PATTERN_OFF;
    return l->pattern;
}

static uint8_t pattern_lit(uint8_t pattern, uint32_t elapsed_ms)
{
    switch (pattern) {
    case PATTERN_ON: return 1;
    /* power-of-two periods: a mask, not a 32-bit division, which costs an AVR ~600 cycles */
    case PATTERN_BLINK_SLOW: return (elapsed_ms & 511u) < 256u; /* 1.95 Hz */
    case PATTERN_BLINK_FAST: return (elapsed_ms & 127u) < 64u;  /* 7.8 Hz */
    default: return 0;
    }
}

void core_outputs(const board_core_t *core, uint32_t now_ms, core_outputs_t *out)
{
    out->lights = 0;
    out->tone_hz = core->note_count > 0 ? core->notes[0].frequency_hz : 0;
    if (core->self_test) {
        uint32_t elapsed = now_ms - core->self_test_start_ms;
        uint32_t step = elapsed / core->self_test_step_ms;
        out->lights = step < LIGHT_COUNT ? (uint16_t)(1u << step) : (uint16_t)((1u << LIGHT_COUNT) - 1);
        return;
    }
    for (uint8_t i = 0; i < LIGHT_COUNT; i++)
        if (pattern_lit(core_light_pattern(core, i, now_ms), now_ms - core->lights[i].since_ms))
            out->lights |= (uint16_t)(1u << i);
    if (core->centre_flash) {
        out->lights |= (uint16_t)(1u << LIGHT_CENTRE);
    } else if (core->countdown_running) {
        out->lights &= (uint16_t)~(1u << LIGHT_CENTRE); /* dark between the counts */
    } else if (!core->session) {
        if (((now_ms - core->boot_ms) & ORPHAN_PERIOD_MASK) < ORPHAN_ON_MS)
            out->lights |= (uint16_t)(1u << LIGHT_CENTRE);
    }
}

static uint16_t self_test_length(const board_core_t *core)
{
    return (uint16_t)(core->self_test_step_ms * LIGHT_COUNT + SELF_TEST_ALL_MS);
}

uint16_t core_start_self_test(board_core_t *core, uint32_t now_ms, uint16_t step_ms, uint8_t quick)
{
    static const uint16_t scale[4] = {523, 659, 784, 1047}; /* C5 E5 G5 C6 */
    core->now_ms = now_ms;
    core->self_test = 1;
    core->self_test_step_ms = step_ms ? step_ms : 1;
    core->self_test_start_ms = now_ms;
    notes_clear(core);
    if (quick)
        notes_add(core, 1047, 80);
    else
        for (uint8_t i = 0; i < 4; i++)
            notes_add(core, scale[i], 150);
    return self_test_length(core);
}

/* ---- countdown ---- */

static void countdown_cancel(board_core_t *core)
{
    core->countdown_running = 0;
    core->centre_flash = 0;
}

static void countdown_run(board_core_t *core)
{
    if (core->centre_flash && (int32_t)(core->now_ms - core->centre_flash_until) >= 0)
        core->centre_flash = 0;
    while (core->countdown_running &&
           (uint32_t)(core->now_ms - core->countdown_start_ms) >=
               (uint32_t)core->countdown_next * core->countdown_step_ms) {
        uint8_t step = core->countdown_next; /* 0 -> "3", 1 -> "2", 2 -> "1", 3 -> "spit" */
        uint32_t at = core->countdown_start_ms + (uint32_t)step * core->countdown_step_ms;
        core->centre_flash = 1;
        if (step < 3) {
            core->centre_flash_until = at + core->countdown_step_ms / 2u;
            notes_play_now(core, 880, 120);
            send_event_at(core, EVENT_COUNTDOWN, (uint8_t)(3 - step), at);
            core->countdown_next++;
        } else {
            core->centre_flash_until = at + SPIT_FLASH_MS;
            notes_play_now(core, 1760, 400);
            send_event_at(core, EVENT_COUNTDOWN, 0, at);
            core->countdown_running = 0;
        }
    }
}

/* ---- safe state ---- */

static void go_safe(board_core_t *core)
{
    lights_off(core);
    notes_clear(core);
    countdown_cancel(core);
    core->self_test = 0;
    core->session = 0;
    core->safe = 1;
    send_event(core, EVENT_SAFE_STATE, 0);
}

/* ---- commands ---- */

static uint8_t identify_payload(const board_core_t *core, uint8_t *p)
{
    p[0] = 'S'; p[1] = 'P'; p[2] = 'I'; p[3] = 'T';
    p[4] = PROTOCOL_MAJOR; p[5] = PROTOCOL_MINOR;
    p[6] = FIRMWARE_MAJOR; p[7] = FIRMWARE_MINOR; p[8] = FIRMWARE_PATCH;
    put_u16(p + 9, core->boot_id);
    p[11] = LIGHT_COUNT;
    put_u16(p + 12, core->self_test_failures);
    return 14;
}

static uint8_t status_flags(const board_core_t *core)
{
    return (uint8_t)((core->session ? STATUS_SESSION : 0) | (core->countdown_running ? STATUS_COUNTDOWN : 0) |
                     (core->safe ? STATUS_SAFE : 0) | (core->self_test ? STATUS_SELF_TEST : 0) |
                     (core->note_count ? STATUS_BUZZER : 0));
}

/* Executes one command; writes the response command byte and payload. */
static uint8_t execute(board_core_t *core, const frame_t *f, uint8_t *response, uint8_t *length)
{
    uint8_t ack = (uint8_t)(RESPONSE_ACK_BIT | f->command);
    const uint8_t *p = f->payload;
    *length = 0;
#define REFUSE(reason) do { response[0] = f->command; response[1] = (reason); *length = 2; return RESPONSE_NAK; } while (0)
    if (f->command != CMD_IDENTIFY && f->command != CMD_PING && !core->session) {
        switch (f->command) {
        case CMD_SET_LIGHTS: case CMD_ALL_OFF: case CMD_BEEP: case CMD_COUNTDOWN:
        case CMD_SELF_TEST: case CMD_GET_STATUS:
            REFUSE(NAK_NO_SESSION);
        default:
            REFUSE(NAK_UNKNOWN_COMMAND);
        }
    }
    switch (f->command) {
    case CMD_IDENTIFY:
        if (f->length != 2)
            REFUSE(NAK_BAD_LENGTH);
        *length = identify_payload(core, response);
        if (p[0] == PROTOCOL_MAJOR) {
            core->session = 1;
            core->safe = 0;
        }
        return ack; /* an incompatible host learns our version from the answer and stops */
    case CMD_PING:
        if (f->length != 0)
            REFUSE(NAK_BAD_LENGTH);
        response[0] = status_flags(core);
        put_u32(response + 1, core->now_ms - core->boot_ms);
        put_u16(response + 5, core->boot_id);
        put_u16(response + 7, (uint16_t)(core->parser.crc_errors + core->parser.framing_errors));
        *length = 9;
        return ack;
    case CMD_SET_LIGHTS:
        if (f->length == 0 || f->length % 4 != 0 || f->length / 4 > LIGHT_COUNT)
            REFUSE(NAK_BAD_LENGTH);
        for (uint8_t i = 0; i < f->length; i += 4)
            if (p[i] >= LIGHT_COUNT || p[i + 1] >= PATTERN_COUNT)
                REFUSE(NAK_BAD_ARGUMENT); /* all or nothing: nothing changed yet */
        for (uint8_t i = 0; i < f->length; i += 4) {
            light_t *l = &core->lights[p[i]];
            uint16_t duration = get_u16(p + i + 2);
            if (l->pattern != p[i + 1] || core_light_pattern(core, p[i], core->now_ms) != p[i + 1])
                l->since_ms = core->now_ms; /* an unchanged blink keeps its phase */
            l->pattern = p[i + 1];
            l->timed = duration != 0;
            l->until_ms = core->now_ms + duration;
        }
        return ack;
    case CMD_ALL_OFF:
        if (f->length != 0)
            REFUSE(NAK_BAD_LENGTH);
        lights_off(core);
        notes_clear(core);
        countdown_cancel(core);
        core->self_test = 0;
        return ack;
    case CMD_BEEP:
        if (f->length == 0 || f->length % 4 != 0 || f->length / 4 > 4)
            REFUSE(NAK_BAD_LENGTH);
        for (uint8_t i = 0; i < f->length; i += 4) {
            uint16_t frequency = get_u16(p + i);
            if ((frequency != 0 && (frequency < 100 || frequency > 10000)) || get_u16(p + i + 2) > 5000)
                REFUSE(NAK_BAD_ARGUMENT);
        }
        for (uint8_t i = 0; i < f->length; i += 4)
            notes_add(core, get_u16(p + i), get_u16(p + i + 2));
        return ack;
    case CMD_COUNTDOWN: {
        if (f->length != 2)
            REFUSE(NAK_BAD_LENGTH);
        uint16_t step = get_u16(p);
        if (step == 0) {
            countdown_cancel(core);
            return ack;
        }
        if (step < COUNTDOWN_MIN_STEP_MS || step > COUNTDOWN_MAX_STEP_MS)
            REFUSE(NAK_BAD_ARGUMENT);
        core->countdown_running = 1;
        core->countdown_next = 0;
        core->countdown_step_ms = step;
        core->countdown_start_ms = core->now_ms;
        put_u16(response, (uint16_t)(3u * step));
        *length = 2;
        return ack; /* the "3" itself fires from core_tick, after this ack is queued */
    }
    case CMD_SELF_TEST:
        if (f->length != 0)
            REFUSE(NAK_BAD_LENGTH);
        put_u16(response, core_start_self_test(core, core->now_ms, SELF_TEST_STEP_MS, 0));
        put_u16(response + 2, core->self_test_failures);
        *length = 4;
        return ack;
    case CMD_GET_STATUS:
        if (f->length != 0)
            REFUSE(NAK_BAD_LENGTH);
        response[0] = status_flags(core);
        put_u32(response + 1, core->now_ms - core->boot_ms);
        for (uint8_t i = 0; i < LIGHT_COUNT; i++)
            response[5 + i] = core_light_pattern(core, i, core->now_ms);
        response[5 + LIGHT_COUNT] = core->countdown_running ? (uint8_t)(3 - core->countdown_next) : 0xFF;
        put_u16(response + 6 + LIGHT_COUNT, core->parser.frames_ok);
        put_u16(response + 8 + LIGHT_COUNT, core->executed);
        put_u16(response + 10 + LIGHT_COUNT, core->duplicates);
        put_u16(response + 12 + LIGHT_COUNT, (uint16_t)(core->parser.crc_errors + core->parser.framing_errors));
        *length = 14 + LIGHT_COUNT;
        return ack;
    default:
        REFUSE(NAK_UNKNOWN_COMMAND);
    }
#undef REFUSE
}

static void handle_frame(board_core_t *core, const frame_t *f)
{
    core->last_frame_ms = core->now_ms;
    if (f->seq == 0 || (f->command & RESPONSE_ACK_BIT))
        return; /* seq 0 and response codes are the board's own; a loop-back echo is ignored */
    if (f->command == CMD_IDENTIFY) {
        /* a new session: forget responses of the previous one, whose sequence numbers may repeat */
        for (uint8_t i = 0; i < CORE_DUPLICATE_SLOTS; i++)
            core->cache[i].used = 0;
    } else {
        for (uint8_t i = 0; i < CORE_DUPLICATE_SLOTS; i++) {
            cached_response_t *c = &core->cache[i];
            if (c->used && c->seq == f->seq && c->request_crc == f->crc) {
                core->duplicates++;
                tx_push_frame(core, c->bytes, c->length); /* answered again, not executed again */
                return;
            }
        }
    }
    uint8_t response[FRAME_MAX_PAYLOAD];
    uint8_t length;
    uint8_t command = execute(core, f, response, &length);
    core->executed++;
    cached_response_t *slot = &core->cache[core->cache_next];
    core->cache_next = (uint8_t)((core->cache_next + 1) % CORE_DUPLICATE_SLOTS);
    slot->used = 1;
    slot->seq = f->seq;
    slot->request_crc = f->crc;
    slot->length = frame_encode(f->seq, command, response, length, slot->bytes);
    tx_push_frame(core, slot->bytes, slot->length);
}

/* ---- entry points ---- */

void core_init(board_core_t *core, uint16_t boot_id, uint16_t self_test_failures, uint32_t now_ms)
{
    uint8_t *raw = (uint8_t *)core;
    for (uint16_t i = 0; i < sizeof *core; i++)
        raw[i] = 0;
    frame_parser_init(&core->parser);
    core->boot_id = boot_id;
    core->self_test_failures = self_test_failures;
    core->now_ms = now_ms;
    core->boot_ms = now_ms;
    core->last_frame_ms = now_ms;
    uint8_t payload[16];
    uint8_t n = identify_payload(core, payload);
    send(core, 0, BOARD_HELLO, payload, n);
}

void core_rx_byte(board_core_t *core, uint8_t byte, uint32_t now_ms)
{
    frame_t frame;
    core->now_ms = now_ms;
    if (frame_parser_feed(&core->parser, byte, &frame))
        handle_frame(core, &frame);
}

void core_tick(board_core_t *core, uint32_t now_ms)
{
    core->now_ms = now_ms;
    if (core->self_test && (uint32_t)(now_ms - core->self_test_start_ms) >= self_test_length(core)) {
        core->self_test = 0;
        send_event(core, EVENT_SELF_TEST_DONE, 0);
    }
    countdown_run(core);
    notes_advance(core);
    for (uint8_t i = 0; i < LIGHT_COUNT; i++)
        if (core->lights[i].timed && (int32_t)(now_ms - core->lights[i].until_ms) >= 0) {
            core->lights[i].pattern = PATTERN_OFF;
            core->lights[i].timed = 0;
        }
    if (core->session && (uint32_t)(now_ms - core->last_frame_ms) > HEARTBEAT_TIMEOUT_MS)
        go_safe(core);
}
