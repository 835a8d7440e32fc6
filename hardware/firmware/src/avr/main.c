/* AVR glue for the spit referee board (ATmega328P at 16 MHz: Arduino Uno / Nano).
 * Everything the board decides lives in ../core (plain C, tested on the host);
 * this file only moves bytes, keeps the millisecond clock and drives pins.
 *
 *   Timer0  CTC 1 kHz tick (millisecond clock, wakes the main loop)
 *   Timer1  CTC, toggles OC1A (D9) at twice the note frequency: the piezo
 *   USART0  115200 8N1 (U2X), receive and transmit by interrupt
 *   WDT     250 ms: a hung main loop resets the board, which then says HELLO
 *   EEPROM  word 0: boot counter, reported as boot_id so the host sees resets
 */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <util/atomic.h>
#include <util/delay.h>

#include "../core/board_core.h"

#ifdef WITH_SIMAVR_SECTION
#include <avr/avr_mcu_section.h>
AVR_MCU(F_CPU, "atmega328p"); /* lets simavr (and run_avr) pick MCU and clock from the ELF */
#endif

#define BAUD_DIVISOR 16 /* 16 MHz / (8 * (16 + 1)) = 117647 baud, 2.1 % off 115200, within UART tolerance */

/* light index -> port and bit, in the order of protocol.h (see hardware/WIRING.md) */
typedef struct { volatile uint8_t *port, *ddr, *pin; uint8_t bit; } pin_t;
static const pin_t LIGHT_PINS[LIGHT_COUNT] = {
    {&PORTD, &DDRD, &PIND, 2}, /* D2  A legal   green  */
    {&PORTD, &DDRD, &PIND, 3}, /* D3  A illegal red    */
    {&PORTD, &DDRD, &PIND, 4}, /* D4  B legal   green  */
    {&PORTD, &DDRD, &PIND, 5}, /* D5  B illegal red    */
    {&PORTD, &DDRD, &PIND, 6}, /* D6  pile 0, A side, blue   */
    {&PORTD, &DDRD, &PIND, 7}, /* D7  pile 0, B side, yellow */
    {&PORTB, &DDRB, &PINB, 0}, /* D8  pile 1, A side, blue   */
    {&PORTB, &DDRB, &PINB, 2}, /* D10 pile 1, B side, yellow */
    {&PORTB, &DDRB, &PINB, 3}, /* D11 centre  white  */
};
#define BUZZER_BIT PB1 /* D9, OC1A */
#define LINK_BIT PB5   /* D13, the Uno's own LED: lit while a host session is open */

static board_core_t core;
static volatile uint32_t milliseconds;

#define RX_SIZE 64 /* power of two */
static volatile uint8_t rx_buffer[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
#define TX_SIZE 64
static volatile uint8_t tx_buffer[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;

uint8_t reset_flags __attribute__((section(".noinit")));

/* Runs before main: a watchdog reset leaves the watchdog armed at its shortest period. */
void early_init(void) __attribute__((naked, used, section(".init3")));
void early_init(void)
{
    reset_flags = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

ISR(TIMER0_COMPA_vect) { milliseconds++; }

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) & (RX_SIZE - 1));
    if (next != rx_tail) { /* full: drop; the frame's CRC fails and the host retries */
        rx_buffer[rx_head] = byte;
        rx_head = next;
    }
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buffer[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) & (TX_SIZE - 1));
}

static uint32_t now_ms(void)
{
    uint32_t value;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { value = milliseconds; }
    return value;
}

static void setup_hardware(void)
{
    for (uint8_t i = 0; i < LIGHT_COUNT; i++) {
        *LIGHT_PINS[i].ddr |= _BV(LIGHT_PINS[i].bit);
        *LIGHT_PINS[i].port &= (uint8_t)~_BV(LIGHT_PINS[i].bit);
    }
    DDRB |= _BV(BUZZER_BIT) | _BV(LINK_BIT);
    /* INT0/INT1 share D2/D3 with two lights and are never enabled, but their reset default is
     * "low level": simavr then polls both pins on every cycle while the lights are off, which
     * made the simulation 20x slower. Edge mode costs nothing on the chip. */
    EICRA = _BV(ISC01) | _BV(ISC11);
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00); /* /64: 250 kHz */
    OCR0A = 249;                    /* 1 kHz */
    TIMSK0 = _BV(OCIE0A);
    TCCR1A = 0;
    TCCR1B = _BV(WGM12); /* CTC; clocked (/8: 2 MHz) only while sounding */
    UBRR0H = 0;
    UBRR0L = BAUD_DIVISOR;
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

/* Power-up check: drive each light pin high then low and read it back; a pin
 * shorted to ground or to 5 V reads wrong. Bit i set = light i failed. */
static uint16_t pin_self_test(void)
{
    uint16_t failures = 0;
    for (uint8_t i = 0; i < LIGHT_COUNT; i++) {
        const pin_t *p = &LIGHT_PINS[i];
        *p->port |= _BV(p->bit);
        _delay_us(5);
        uint8_t high = (*p->pin & _BV(p->bit)) != 0;
        *p->port &= (uint8_t)~_BV(p->bit);
        _delay_us(5);
        uint8_t low = (*p->pin & _BV(p->bit)) == 0;
        if (!high || !low)
            failures |= (uint16_t)(1u << i);
    }
    return failures;
}

static uint16_t sounding_hz;

static void apply_outputs(uint32_t now)
{
    core_outputs_t out;
    core_outputs(&core, now, &out);
    for (uint8_t i = 0; i < LIGHT_COUNT; i++) {
        if (out.lights & (1u << i))
            *LIGHT_PINS[i].port |= _BV(LIGHT_PINS[i].bit);
        else
            *LIGHT_PINS[i].port &= (uint8_t)~_BV(LIGHT_PINS[i].bit);
    }
    if (core.session)
        PORTB |= _BV(LINK_BIT);
    else
        PORTB &= (uint8_t)~_BV(LINK_BIT);
    if (out.tone_hz != sounding_hz) {
        sounding_hz = out.tone_hz;
        if (sounding_hz) {
            TCCR1A = _BV(COM1A0);
            TCCR1B = _BV(WGM12) | _BV(CS11); /* clock first: simavr only takes OCR1A in a running CTC mode */
            OCR1A = (uint16_t)(1000000UL / sounding_hz - 1); /* toggle at 2 f on a 2 MHz clock */
            TCNT1 = 0;
        } else {
            TCCR1B = _BV(WGM12); /* stopped: a free-running timer would only burn simulator time */
            TCCR1A = 0;
            PORTB &= (uint8_t)~_BV(BUZZER_BIT);
        }
    }
}

static void pump_transmit(void)
{
    for (;;) {
        uint8_t next = (uint8_t)((tx_head + 1) & (TX_SIZE - 1));
        if (next == tx_tail)
            break;
        int16_t byte = core_tx_pop(&core);
        if (byte < 0)
            break;
        tx_buffer[tx_head] = (uint8_t)byte;
        tx_head = next;
        UCSR0B |= _BV(UDRIE0);
    }
}

int main(void)
{
    setup_hardware();
    uint16_t failures = pin_self_test();
    uint16_t boot_id = (uint16_t)(eeprom_read_word((uint16_t *)0) + 1);
    eeprom_update_word((uint16_t *)0, boot_id);
    sei();
    core_init(&core, boot_id, failures, now_ms());
    core_start_self_test(&core, now_ms(), BOOT_SELF_TEST_STEP_MS, 1);
    wdt_enable(WDTO_250MS);
    set_sleep_mode(SLEEP_MODE_IDLE);
    uint32_t last_tick = 0xFFFFFFFFu;
    for (;;) {
        wdt_reset();
        uint32_t now = now_ms();
        while (rx_tail != rx_head) {
            uint8_t byte = rx_buffer[rx_tail];
            rx_tail = (uint8_t)((rx_tail + 1) & (RX_SIZE - 1));
            core_rx_byte(&core, byte, now);
            pump_transmit();
        }
        if (now != last_tick) { /* once a millisecond, not on every byte's wake-up */
            last_tick = now;
            core_tick(&core, now);
            apply_outputs(now);
        }
        pump_transmit();
        /* Sleep until the next interrupt (tick, byte in, byte out), unless a byte already waits. */
        cli();
        if (rx_tail == rx_head) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
