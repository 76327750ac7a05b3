/*
 * simharness: runs the buzzer box firmware in simavr (ATmega328P, 16 MHz) at real-time pace,
 * with its UART on a pseudo-terminal and its button pins driven from a control channel.
 *
 *   simharness FIRMWARE.elf LINK_PATH
 *
 * LINK_PATH becomes a symlink to the pty slave (like a udev /dev/serial/by-id link), so a
 * host that reopens the same path after "unplug" / "replug" finds the new pty.
 *
 * Control channel: one command a line on stdin, one reply a line on stdout.
 *   now                      -> "now US"          simulated time in microseconds
 *   at US PLAYER LEVEL       -> "ok US"           drive button pin PD(2+PLAYER) to LEVEL (0 = pressed)
 *                                                 at simulated time US (to the cycle)
 *   sched LEAD P:OFF:LEVEL ...  -> "ok BASE"      several pin changes in one go, at BASE + OFF us,
 *                                                 where BASE = now + LEAD (immune to host delays)
 *   reset                    -> "ok"              reset the MCU (RAM lost, EEPROM kept)
 *   unplug                   -> "ok"              close the pty: the host sees the port vanish
 *   replug                   -> "pty PATH"        a new pty behind LINK_PATH
 *   tohost HEX               -> "ok"              raw bytes to the host, as if the box sent them
 *   ports                    -> "ports B=xx C=xx D=xx"   output latches
 *   corrupt RATE SEED        -> "ok"              from now on drop (RATE/2) or bit-flip (RATE/2)
 *                                                 each byte on the link, both ways
 *   quit                     -> exits
 * Unsolicited lines: "pty PATH" at start, "pin C0 1 US" when an LED output changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_cycle_timers.h"
#include "sim_elf.h"
#include "sim_irq.h"

#define FREQ 16000000ULL
#define SLICE_CYCLES 1600 /* 100 us */
#define MAX_EVENTS 4096

static avr_t *avr;
static int master = -1, slave = -1;
static const char *link_path;
static uint8_t to_avr[8192];
static size_t to_avr_head, to_avr_len;
static uint8_t to_host[8192];
static size_t to_host_len;
static int xoff;
static uint8_t level[8] = {1, 1, 1, 1, 1, 1, 1, 1};
static double corrupt_rate;
static uint64_t rng_state = 88172645463325252ULL;
static uint64_t cycle_offset; /* keeps simulated time monotonic across avr_reset */

struct event { uint64_t at; int player, level; };
static struct event events[MAX_EVENTS];
static int nevents;

static uint64_t now_cycles(void) { return avr->cycle + cycle_offset; }
static uint64_t now_us(void) { return now_cycles() * 1000000ULL / FREQ; }

static void drive(int player, int value) {
    level[player] = value;
    avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2 + player), value);
}

static avr_cycle_count_t fire_events(avr_t *a, avr_cycle_count_t when, void *param) {
    (void)a; (void)when; (void)param;
    uint64_t now = now_cycles();
    int done = 0;
    while (done < nevents && events[done].at <= now) {
        drive(events[done].player, events[done].level);
        done++;
    }
    memmove(events, events + done, (size_t)(nevents - done) * sizeof events[0]);
    nevents -= done;
    return nevents ? (avr_cycle_count_t)(events[0].at - cycle_offset) : 0;
}

static void arm_timer(void) {
    avr_cycle_timer_cancel(avr, fire_events, NULL);
    if (!nevents) return;
    uint64_t now = now_cycles();
    avr_cycle_timer_register(avr, events[0].at > now ? events[0].at - now : 1, fire_events, NULL);
}

static int schedule(uint64_t at, int player, int value) {
    if (nevents >= MAX_EVENTS || player < 0 || player > 5) return -1;
    int i = nevents;
    while (i > 0 && events[i - 1].at > at) { events[i] = events[i - 1]; i--; }
    events[i] = (struct event){at, player, value};
    nevents++;
    arm_timer();
    return 0;
}

/* ---- UART <-> pty -------------------------------------------------------------------- */
static double rnd(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Line noise on demand: returns 0 if the byte is lost, else 1 (perhaps with a bit flipped). */
static int damage(uint8_t *c) {
    if (corrupt_rate <= 0) return 1;
    double r = rnd();
    if (r < corrupt_rate / 2) return 0;
    if (r < corrupt_rate) *c ^= (uint8_t)(1u << (rng_state % 8));
    return 1;
}

static void uart_out(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)param;
    uint8_t c = (uint8_t)value;
    if (master >= 0 && to_host_len < sizeof to_host && damage(&c)) to_host[to_host_len++] = c;
}
static void uart_xon(struct avr_irq_t *irq, uint32_t value, void *param) { (void)irq; (void)value; (void)param; xoff = 0; }
static void uart_xoff(struct avr_irq_t *irq, uint32_t value, void *param) { (void)irq; (void)value; (void)param; xoff = 1; }

static void feed_avr(void) {
    avr_irq_t *in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    while (!xoff && to_avr_len) {
        uint8_t c = to_avr[to_avr_head];
        to_avr_head = (to_avr_head + 1) % sizeof to_avr;
        to_avr_len--;
        avr_raise_irq(in, c);
    }
}

static void flush_host(void) {
    if (master < 0) { to_host_len = 0; return; }
    size_t off = 0;
    while (off < to_host_len) {
        ssize_t n = write(master, to_host + off, to_host_len - off);
        if (n <= 0) break; /* host not reading: drop, like a full USB buffer */
        off += (size_t)n;
    }
    to_host_len = 0;
}

static void unplug(void) {
    if (master >= 0) close(master);
    if (slave >= 0) close(slave);
    master = slave = -1;
    unlink(link_path);
    to_avr_len = 0;
}

static void plug(void) {
    char name[256];
    if (openpty(&master, &slave, name, NULL, NULL) < 0) { perror("openpty"); exit(2); }
    struct termios tio;
    tcgetattr(slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(slave, TCSANOW, &tio);
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    unlink(link_path);
    if (symlink(name, link_path) < 0) { perror("symlink"); exit(2); }
    printf("pty %s\n", name);
}

/* ---- LED outputs --------------------------------------------------------------------- */
static void pin_changed(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    static int last[2][8] = {{-1, -1, -1, -1, -1, -1, -1, -1}, {-1, -1, -1, -1, -1, -1, -1, -1}};
    int port = (int)(intptr_t)param >> 8, pin = (int)(intptr_t)param & 0xFF;
    int *slot = &last[port == 'C'][pin];
    if (*slot == (int)value) return;
    *slot = (int)value;
    printf("pin %c%d %u %llu\n", port, pin, value, (unsigned long long)now_us());
}

static void watch(char port, int pin) {
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), pin), pin_changed,
                            (void *)(intptr_t)((port << 8) | pin));
}

static void sleep_none(avr_t *a, avr_cycle_count_t howlong) { (void)a; (void)howlong; }

/* ---- control channel ----------------------------------------------------------------- */
static void command(char *line) {
    unsigned long long at;
    int player, value;
    char hex[1024];
    if (!strcmp(line, "now")) {
        printf("now %llu\n", (unsigned long long)now_us());
    } else if (sscanf(line, "at %llu %d %d", &at, &player, &value) == 3) {
        uint64_t cyc = at * FREQ / 1000000ULL;
        if (schedule(cyc, player, value != 0) < 0) printf("err bad event\n");
        else printf("ok %llu\n", at);
    } else if (sscanf(line, "sched %llu", &at) == 1) {
        uint64_t base = now_us() + at;
        char *tok = strtok(line + 6, " ");
        int bad = 0;
        tok = strtok(NULL, " "); /* skip LEAD */
        for (; tok; tok = strtok(NULL, " ")) {
            unsigned long long off;
            if (sscanf(tok, "%d:%llu:%d", &player, &off, &value) != 3 ||
                schedule((base + off) * FREQ / 1000000ULL, player, value != 0) < 0) bad = 1;
        }
        if (bad) printf("err bad event\n"); else printf("ok %llu\n", (unsigned long long)base);
    } else if (!strcmp(line, "reset")) {
        uint64_t before = now_cycles();
        avr_reset(avr);
        if (avr->cycle + cycle_offset < before) cycle_offset = before - avr->cycle;
        for (int p = 0; p < 6; p++) { /* re-assert the button levels after the reset */
            avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2 + p), !level[p]);
            drive(p, level[p]);
        }
        arm_timer();
        printf("ok\n");
    } else if (!strcmp(line, "unplug")) {
        unplug();
        printf("ok\n");
    } else if (!strcmp(line, "replug")) {
        if (master < 0) plug(); else printf("pty already\n");
    } else if (sscanf(line, "tohost %1023s", hex) == 1) {
        for (size_t i = 0; hex[i] && hex[i + 1] && to_host_len < sizeof to_host; i += 2) {
            unsigned byte;
            sscanf(hex + i, "%2x", &byte);
            to_host[to_host_len++] = (uint8_t)byte;
        }
        printf("ok\n");
    } else if (sscanf(line, "corrupt %lf %llu", &corrupt_rate, &at) == 2) {
        rng_state = at ? at : 1;
        printf("ok\n");
    } else if (!strcmp(line, "ports")) {
        avr_ioport_state_t b, c, d;
        avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE('B'), &b);
        avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE('C'), &c);
        avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE('D'), &d);
        printf("ports B=%02x C=%02x D=%02x\n", (unsigned)b.port, (unsigned)c.port, (unsigned)d.pin);
    } else if (!strcmp(line, "quit")) {
        unplug();
        exit(0);
    } else {
        printf("err unknown command: %s\n", line);
    }
}

static double wall(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s FIRMWARE.elf LINK_PATH\n", argv[0]); return 2; }
    link_path = argv[2];
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw) != 0) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }
    avr = avr_make_mcu_by_name("atmega328p");
    if (!avr) { fprintf(stderr, "simavr has no atmega328p\n"); return 2; }
    avr_init(avr);
    avr->frequency = FREQ;
    avr->log = 0;
    avr_load_firmware(avr, &fw);
    avr->sleep = sleep_none; /* pacing is done below, against the wall clock */

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff, NULL);
    for (int p = 0; p < 6; p++) { avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2 + p), 0); drive(p, 1); }
    for (int p = 0; p < 6; p++) watch('C', p);
    watch('B', 0); watch('B', 1); watch('B', 2); watch('B', 4);

    plug();
    char line[2048];
    size_t line_len = 0;
    double t0 = wall();
    uint64_t c0 = now_cycles();
    for (;;) {
        uint64_t target = c0 + (uint64_t)((wall() - t0) * FREQ) + SLICE_CYCLES;
        while (now_cycles() < target) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) { printf("crash %d\n", state); return 1; }
        }
        flush_host();
        feed_avr();
        double ahead = (double)(now_cycles() - c0) / FREQ - (wall() - t0);
        if (ahead < -0.05) { t0 = wall(); c0 = now_cycles(); ahead = 0; } /* host too slow: stop catching up */
        struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = master, .events = POLLIN}};
        struct timespec ts = {0, ahead > 0 ? (long)(ahead * 1e9) : 0};
        if (ppoll(fds, master >= 0 ? 2 : 1, &ts, NULL) <= 0) continue;
        if (fds[0].revents & (POLLIN | POLLHUP)) {
            char buf[1024];
            ssize_t n = read(0, buf, sizeof buf);
            if (n <= 0) { unplug(); return 0; } /* control channel closed: quit */
            for (ssize_t i = 0; i < n; i++) {
                if (buf[i] == '\n') { line[line_len] = 0; command(line); line_len = 0; }
                else if (line_len < sizeof line - 1) line[line_len++] = buf[i];
            }
        }
        if (master >= 0 && (fds[1].revents & POLLIN)) {
            uint8_t buf[1024];
            ssize_t n = read(master, buf, sizeof buf);
            for (ssize_t i = 0; i < n && to_avr_len < sizeof to_avr; i++) {
                if (!damage(&buf[i])) continue;
                to_avr[(to_avr_head + to_avr_len) % sizeof to_avr] = buf[i];
                to_avr_len++;
            }
            feed_avr();
        }
    }
}
