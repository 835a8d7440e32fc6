/* spit-board-sim: runs the board's AVR image under simavr, as if it were a
 * real Uno on a USB cable.
 *
 *   spit-board-sim FIRMWARE.elf [--link PATH] [--mcu atmega328p] [--frequency HZ]
 *                  [--no-reset-on-open] [--pins FILE]
 *
 * - UART0 is bridged to a pseudo-terminal; its slave path is printed on stdout
 *   as "pty: /dev/pts/N" and, with --link, PATH becomes a symlink to it (a
 *   stable name across restarts, like /dev/serial/by-id/...).
 * - Simulated time is kept in step with the wall clock: the AVR never runs
 *   more than one millisecond ahead, and a lag over 100 ms (a loaded machine)
 *   is forgiven rather than caught up in a burst.
 * - Opening the port resets the AVR, as the Uno's DTR line does through its
 *   100 nF capacitor. A pseudo-terminal has no DTR, but its master side sees
 *   POLLHUP while no process holds the slave open; the transition from hung-up
 *   to open is the port being opened. Bytes the AVR sends while nobody has the
 *   port open are dropped, as a USB-serial bridge drops them.
 * - SIGUSR1 resets the AVR (the reset button); SIGINT / SIGTERM end the run.
 * - --pins FILE logs every change of ports B and D as "<microseconds> <port> <hex value>",
 *   so tests can see the lights and the buzzer pin the firmware actually drives.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>

#define AHEAD_NS 1000000LL       /* run at most 1 ms of AVR time ahead of the wall clock */
#define FORGIVE_LAG_NS 100000000LL

static volatile sig_atomic_t stop_requested, reset_requested;
static int xon = 1;
static unsigned char to_host[65536];
static size_t to_host_len;
static int port_open;

static void on_signal(int signal_number)
{
    if (signal_number == SIGUSR1)
        reset_requested = 1;
    else
        stop_requested = 1;
}

static long long simulated_ns(avr_cycle_count_t cycles, unsigned long frequency)
{
    return (long long)((double)cycles * 1e9 / (double)frequency);
}

static long long wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void uart_output(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)param;
    if (port_open && to_host_len < sizeof to_host)
        to_host[to_host_len++] = (unsigned char)value;
}
static void uart_xon(struct avr_irq_t *irq, uint32_t value, void *param) { (void)irq; (void)value; (void)param; xon = 1; }
static void uart_xoff(struct avr_irq_t *irq, uint32_t value, void *param) { (void)irq; (void)value; (void)param; xon = 0; }

static FILE *pin_log;

static void port_changed(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    avr_t *avr = (avr_t *)((void **)param)[0];
    char port = (char)(long)((void **)param)[1];
    fprintf(pin_log, "%llu %c %02x\n", (unsigned long long)((double)avr->cycle * 1e6 / avr->frequency), port,
            (unsigned)(value & 0xFF));
}

/* The time-keeping loop's sleep: simavr would usleep inside avr_run; we pace ourselves. */
static void sleep_nothing(avr_t *avr, avr_cycle_count_t how_long) { (void)avr; (void)how_long; }

/* simavr logs to stdout; stdout is ours (the pty line), so its messages go to stderr */
static void log_to_stderr(avr_t *avr, const int level, const char *format, va_list arguments)
{
    (void)avr;
    if (level <= LOG_WARNING)
        vfprintf(stderr, format, arguments);
}

static int slave_held_open(int master)
{
    struct pollfd p = {.fd = master, .events = 0};
    if (poll(&p, 1, 0) < 0)
        return 0;
    return !(p.revents & POLLHUP);
}

static void usage(void)
{
    fprintf(stderr, "usage: spit-board-sim FIRMWARE.elf [--link PATH] [--mcu NAME] [--frequency HZ] [--no-reset-on-open] [--pins FILE]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *firmware_path = NULL, *link_path = NULL, *mcu = NULL, *pin_log_path = NULL;
    unsigned long frequency = 0;
    int reset_on_open = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--link") && i + 1 < argc) link_path = argv[++i];
        else if (!strcmp(argv[i], "--mcu") && i + 1 < argc) mcu = argv[++i];
        else if (!strcmp(argv[i], "--frequency") && i + 1 < argc) frequency = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--no-reset-on-open")) reset_on_open = 0;
        else if (!strcmp(argv[i], "--pins") && i + 1 < argc) pin_log_path = argv[++i];
        else if (argv[i][0] == '-') usage();
        else firmware_path = argv[i];
    }
    if (!firmware_path)
        usage();

    avr_global_logger_set(log_to_stderr);
    elf_firmware_t firmware;
    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(firmware_path, &firmware) != 0) {
        fprintf(stderr, "spit-board-sim: cannot read %s as an AVR ELF image; build it with `make -C hardware/firmware`\n", firmware_path);
        return 1;
    }
    if (!mcu) mcu = firmware.mmcu[0] ? firmware.mmcu : "atmega328p";
    if (!frequency) frequency = firmware.frequency ? firmware.frequency : 16000000UL;
    avr_t *avr = avr_make_mcu_by_name(mcu);
    if (!avr) {
        fprintf(stderr, "spit-board-sim: simavr does not know the MCU %s\n", mcu);
        return 1;
    }
    avr_init(avr);
    avr_load_firmware(avr, &firmware);
    avr->frequency = frequency;
    avr->sleep = sleep_nothing;
    avr->log = 0;

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_t *to_avr = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_output, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff, NULL);

    static void *port_b[2], *port_d[2];
    if (pin_log_path) {
        pin_log = fopen(pin_log_path, "w");
        if (!pin_log) {
            perror("spit-board-sim: --pins");
            return 1;
        }
        setvbuf(pin_log, NULL, _IOLBF, 0);
        port_b[0] = port_d[0] = avr;
        port_b[1] = (void *)(long)'B';
        port_d[1] = (void *)(long)'D';
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN_ALL), port_changed, port_b);
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), IOPORT_IRQ_PIN_ALL), port_changed, port_d);
    }

    int master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (master < 0 || grantpt(master) || unlockpt(master)) {
        perror("spit-board-sim: pseudo-terminal");
        return 1;
    }
    const char *slave_name = ptsname(master);
    int slave = open(slave_name, O_RDWR | O_NOCTTY);
    if (slave >= 0) {
        struct termios raw;
        tcgetattr(slave, &raw);
        cfmakeraw(&raw);
        tcsetattr(slave, TCSANOW, &raw);
        close(slave); /* from now on, POLLHUP on the master means "port closed" */
    }
    if (link_path) {
        char temporary[4096];
        snprintf(temporary, sizeof temporary, "%s.%d", link_path, (int)getpid());
        unlink(temporary);
        if (symlink(slave_name, temporary) != 0 || rename(temporary, link_path) != 0) {
            perror("spit-board-sim: --link");
            return 1;
        }
    }
    printf("pty: %s\n", slave_name);
    fflush(stdout);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGUSR1, &action, NULL);
    signal(SIGPIPE, SIG_IGN);

    unsigned char from_host[4096];
    size_t from_host_len = 0, from_host_done = 0;
    long long base_wall = wall_ns();
    avr_cycle_count_t base_cycle = avr->cycle;
    int exit_code = 0;

    while (!stop_requested) {
        int open_now = slave_held_open(master);
        if (open_now != port_open) {
            port_open = open_now;
            if (port_open && reset_on_open)
                reset_requested = 1;
        }
        if (reset_requested) {
            reset_requested = 0;
            avr_reset(avr);
            xon = 1;
            from_host_len = from_host_done = 0; /* what came during the reset is lost, as on a real board */
            to_host_len = 0;
            base_wall = wall_ns();
            base_cycle = avr->cycle;
        }

        /* the AVR restarted itself (watchdog): simavr counts cycles from 0 again */
        if (avr->cycle < base_cycle) {
            fprintf(stderr, "spit-board-sim: the AVR restarted (watchdog or jump to 0)\n");
            base_cycle = avr->cycle;
            base_wall = wall_ns();
        }
        /* run the AVR up to 1 ms ahead of the wall clock; in double precision, because
         * cycles x 1e9 overflows 64 bits after 19 minutes at 16 MHz (exact to the cycle for years) */
        long long elapsed = wall_ns() - base_wall;
        long long simulated = simulated_ns(avr->cycle - base_cycle, frequency);
        if (elapsed - simulated > FORGIVE_LAG_NS) {
            base_wall += elapsed - simulated - AHEAD_NS;
            elapsed = wall_ns() - base_wall;
        }
        avr_cycle_count_t target = base_cycle + (avr_cycle_count_t)((double)(elapsed + AHEAD_NS) * frequency / 1e9);
        if (target > avr->cycle + frequency / 20)
            target = avr->cycle + frequency / 20; /* at most 50 ms a round: the port is served meanwhile */
        while (avr->cycle < target && !stop_requested && !reset_requested) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "spit-board-sim: the AVR %s at cycle %llu\n", state == cpu_Done ? "stopped" : "crashed",
                        (unsigned long long)avr->cycle);
                exit_code = 1;
                stop_requested = 1;
                break;
            }
            /* hand bytes to the UART as fast as its receive FIFO takes them */
            while (xon && from_host_done < from_host_len)
                avr_raise_irq(to_avr, from_host[from_host_done++]);
        }

        if (to_host_len) {
            ssize_t n = port_open ? write(master, to_host, to_host_len) : (ssize_t)to_host_len;
            if (n > 0) {
                memmove(to_host, to_host + n, to_host_len - (size_t)n);
                to_host_len -= (size_t)n;
            }
        }

        /* wait for the wall clock (or a byte from the host) */
        simulated = simulated_ns(avr->cycle - base_cycle, frequency);
        long long lead = simulated - (wall_ns() - base_wall);
        if (from_host_done >= from_host_len)
            from_host_len = from_host_done = 0;
        struct pollfd p = {.fd = master, .events = port_open ? POLLIN : 0};
        struct timespec timeout = {0, lead > 0 ? lead : 0};
        if (port_open && from_host_len < sizeof from_host) {
            if (ppoll(&p, 1, &timeout, NULL) > 0 && (p.revents & POLLIN)) {
                ssize_t n = read(master, from_host + from_host_len, sizeof from_host - from_host_len);
                if (n > 0)
                    from_host_len += (size_t)n;
            }
        } else if (lead > 0) {
            nanosleep(&timeout, NULL);
        }
    }
    if (link_path)
        unlink(link_path);
    if (pin_log)
        fclose(pin_log);
    close(master);
    return exit_code;
}
