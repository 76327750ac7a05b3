/*
 * Tabletop buzzer box firmware for an ATmega328P at 16 MHz (Arduino Nano / Uno).
 *
 * Buttons on PD2..PD7 (players 0..5, active low, internal pull-ups) raise a pin-change
 * interrupt that reads the whole of PIND at once and stamps it with a 32-bit microsecond
 * clock (Timer1, 0.5 us ticks) inside the interrupt: two buttons that go down between the
 * same two instructions get the same timestamp, a true tie. A press is stamped at its first
 * edge; the button is then disarmed until it has read released for 20 ms, so contact chatter
 * never makes a second press and debouncing never delays the stamp.
 *
 * Presses wait in a ring buffer until the host acknowledges them by sequence number, and are
 * sent again every 50 ms (and after every SYNC) until then: unplugging the USB cable while
 * the box keeps power loses nothing. Protocol: firmware_bridge/PROTOCOL.md.
 *
 * A 500 ms watchdog reboots a hung box; the host then sees a HELLO with a new boot id.
 *
 * Outputs: player LEDs PC0..PC5, sand timer LEDs PB0 PB1 PB2 PB4, buzzer PB3 (OC2A),
 * heartbeat LED PB5.
 */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <stdint.h>
#include <string.h>
#include <util/atomic.h>

#define FW_MAJOR 1
#define FW_MINOR 0
#define PROTO 2
#define NPLAYERS 6
#define BUTTONS 0xFCu /* PD2..PD7 */
#define REARM_MS 20
#define RETRY_MS 50
#define HEARTBEAT_MS 250
#define TIMER_LEDS (_BV(PB0) | _BV(PB1) | _BV(PB2) | _BV(PB4))

enum { HELLO = 0x01, PRESS = 0x02, ACK = 0x03, HEARTBEAT = 0x04,
       SYNC = 0x10, PRESS_ACK = 0x11, LEDS = 0x12, TIMER = 0x13, BUZZ = 0x14, PING = 0x15 };
enum { ST_OK = 0, ST_UNKNOWN = 1, ST_BAD_ARG = 2 };

/* ---- clock --------------------------------------------------------------------------- */
#ifndef CLOCK_START_US
#define CLOCK_START_US 0UL /* tests start the clock just before it wraps */
#endif
static volatile uint32_t t1_base = CLOCK_START_US; /* microseconds at the last Timer1 overflow (every 32.768 ms) */
static volatile uint32_t ms_count; /* Timer0 compare ticks (1 kHz) */
static volatile uint8_t ms_flag;

ISR(TIMER1_OVF_vect) { t1_base += 32768; }
ISR(TIMER0_COMPA_vect) { ms_count++; ms_flag = 1; }

/* Microseconds since boot, wrapping at 2^32; call with interrupts disabled. */
static inline uint32_t stamp(uint16_t tc, uint8_t tifr) {
    uint32_t t = t1_base + (tc >> 1);
    if ((tifr & _BV(TOV1)) && tc < 0x8000) t += 32768; /* overflow pending, not yet counted */
    return t;
}

static uint32_t micros_locked(void) {
    uint16_t tc = TCNT1;
    return stamp(tc, TIFR1);
}

static uint32_t micros(void) {
    uint32_t t;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { t = micros_locked(); }
    return t;
}

static uint32_t millis(void) {
    uint32_t t;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { t = ms_count; }
    return t;
}

/* ---- presses ------------------------------------------------------------------------- */
#define PBUF 32u /* power of two */
struct press { uint16_t seq; uint8_t player; uint32_t t; };
static struct press pbuf[PBUF];
static uint8_t p_head;              /* next free slot (free-running) */
static uint8_t p_tail;              /* oldest unacknowledged */
static uint8_t p_sent;              /* next one to transmit */
static uint16_t next_seq = 1;
static volatile uint8_t armed;      /* button bits that may start a press */
static volatile uint8_t flags;      /* bit 0: a press was dropped (buffer full) */
static uint8_t release_ms[8];
static uint32_t progress_ms; /* when the oldest unacknowledged press last changed */

/* The interrupt only captures: which armed buttons went down, and the raw clock. Sequence
 * numbers and the press buffer are handled in the main loop, which keeps the ISR to a few
 * microseconds, so presses a few microseconds apart still get their own, ordered stamps. */
#define RAWBUF 16u /* power of two */
struct raw { uint8_t down, tifr; uint16_t tc; uint32_t base; };
static volatile struct raw raw[RAWBUF];
static volatile uint8_t raw_head;
static volatile uint8_t raw_tail;

ISR(PCINT2_vect) {
    uint8_t pins = PIND; /* the whole port in one read: simultaneous edges tie */
    uint16_t tc = TCNT1;
    uint8_t tifr = TIFR1;
    uint8_t down = (uint8_t)~pins & armed; /* armed only ever holds button bits */
    if (!down) return;                     /* chatter of a disarmed button, or a release */
    armed &= (uint8_t)~down;
    uint8_t h = raw_head;
    if ((uint8_t)(h - raw_tail) >= RAWBUF) { flags |= 1; return; }
    volatile struct raw *r = &raw[h & (RAWBUF - 1)];
    r->down = down; r->tifr = tifr; r->tc = tc; r->base = t1_base;
    raw_head = h + 1;
}

/* Main loop: turn captured edges into numbered presses waiting for the host's ack. */
static void take_presses(void) {
    while (raw_tail != raw_head) {
        volatile struct raw *r = &raw[raw_tail & (RAWBUF - 1)];
        uint32_t t = r->base + (r->tc >> 1);
        if ((r->tifr & _BV(TOV1)) && r->tc < 0x8000) t += 32768; /* overflow pending, not yet counted */
        uint8_t down = r->down, bit = 4;
        for (uint8_t p = 0; p < NPLAYERS; p++, bit <<= 1) {
            if (!(down & bit)) continue;
            if ((uint8_t)(p_head - p_tail) >= PBUF) { flags |= 1; continue; }
            struct press *slot = &pbuf[p_head & (PBUF - 1)];
            slot->seq = next_seq++;
            slot->player = p;
            slot->t = t;
            p_head++;
        }
        raw_tail++;
    }
}

/* ---- UART ---------------------------------------------------------------------------- */
#define RXBUF 128u
static volatile uint8_t rx_buf[RXBUF];
static volatile uint8_t rx_head, rx_tail;

ISR(USART_RX_vect) {
    uint8_t c = UDR0;
    uint8_t next = (uint8_t)(rx_head + 1) & (RXBUF - 1);
    if (next != rx_tail) { rx_buf[rx_head] = c; rx_head = next; }
}

static void uart_put(uint8_t c) {
    while (!(UCSR0A & _BV(UDRE0))) {}
    UDR0 = c;
}

static uint8_t tx_seq;

/* Send one frame: 0x00, COBS(type seq body crc16le), 0x00. */
static void send_frame(uint8_t type, const uint8_t *body, uint8_t len) {
    uint8_t raw[24], enc[28];
    raw[0] = type;
    raw[1] = tx_seq++;
    memcpy(raw + 2, body, len);
    uint8_t n = len + 2;
    uint16_t crc = 0xFFFF;
    for (uint8_t i = 0; i < n; i++) {
        crc ^= (uint16_t)raw[i] << 8;
        for (uint8_t b = 0; b < 8; b++) crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    raw[n++] = crc & 0xFF;
    raw[n++] = crc >> 8;
    uint8_t code_at = 0, code = 1, o = 1;
    for (uint8_t i = 0; i < n; i++) {
        if (raw[i] == 0) { enc[code_at] = code; code_at = o++; code = 1; }
        else { enc[o++] = raw[i]; code++; }
    }
    enc[code_at] = code;
    uart_put(0);
    for (uint8_t i = 0; i < o; i++) uart_put(enc[i]);
    uart_put(0);
}

static void put16(uint8_t *b, uint16_t v) { b[0] = v; b[1] = v >> 8; }
static void put32(uint8_t *b, uint32_t v) { put16(b, v); put16(b + 2, v >> 16); }
static uint16_t get16(const uint8_t *b) { return b[0] | ((uint16_t)b[1] << 8); }
static uint32_t get32(const uint8_t *b) { return get16(b) | ((uint32_t)get16(b + 2) << 16); }

static uint16_t boot_id;

/* nonce: 0 in the HELLO a boot sends by itself; the SYNC's nonce in the HELLO that answers it,
 * so a HELLO from an earlier boot or link session can never pass for this one's. */
static void send_hello(uint16_t nonce) {
    uint8_t b[14];
    b[0] = PROTO; b[1] = FW_MAJOR; b[2] = FW_MINOR; b[3] = NPLAYERS;
    put16(b + 4, boot_id);
    put32(b + 6, micros());
    uint16_t oldest = (p_tail != p_head) ? pbuf[p_tail & (PBUF - 1)].seq : next_seq;
    put16(b + 10, oldest);
    put16(b + 12, nonce);
    send_frame(HELLO, b, sizeof b);
}

static void send_ack(uint8_t seq, uint8_t status) {
    uint8_t b[6];
    b[0] = seq; b[1] = status;
    put32(b + 2, micros());
    send_frame(ACK, b, sizeof b);
}

/* ---- outputs ------------------------------------------------------------------------- */
static uint16_t buzz_left_ms;

static void tone(uint16_t hz, uint16_t ms) {
    if (hz < 250 || ms == 0) {
        TCCR2A = 0; TCCR2B = 0; PORTB &= ~_BV(PB3); buzz_left_ms = 0;
        return;
    }
    uint32_t top = 16000000UL / (256UL * hz);
    OCR2A = top > 256 ? 255 : (uint8_t)(top - 1);
    TCCR2A = _BV(COM2A0) | _BV(WGM21);     /* CTC, toggle OC2A */
    TCCR2B = _BV(CS22) | _BV(CS20);        /* clk/128 */
    buzz_left_ms = ms;
}

static uint8_t sand_running, sand_paused;
static uint32_t sand_total_ms, sand_left_ms;

static void sand_show(void) {
    uint8_t lit = 0;
    if (sand_running && sand_total_ms) lit = (uint8_t)((sand_left_ms * 4 + sand_total_ms - 1) / sand_total_ms);
    static const uint8_t bits[4] = { _BV(PB0), _BV(PB1), _BV(PB2), _BV(PB4) };
    uint8_t out = 0;
    for (uint8_t i = 0; i < 4 && i < lit; i++) out |= bits[i];
    if ((PORTB & TIMER_LEDS) != out) PORTB = (PORTB & ~TIMER_LEDS) | out;
}

static void sand_tick(void) {
    if (!sand_running || sand_paused || sand_left_ms == 0) return;
    sand_left_ms--;
    if (sand_left_ms == 0) { tone(880, 1000); sand_running = 0; }
    else if (sand_left_ms <= 5000 && sand_left_ms % 1000 == 0) tone(2000, 80);
    sand_show();
}

/* ---- commands from the host ---------------------------------------------------------- */
static uint8_t last_cmd_seq, last_cmd_status, have_last_cmd;

static uint8_t run_command(uint8_t type, const uint8_t *b, uint8_t len) {
    switch (type) {
    case LEDS:
        if (len != 1) return ST_BAD_ARG;
        PORTC = (PORTC & 0xC0) | (b[0] & 0x3F);
        return ST_OK;
    case TIMER:
        if (len != 5 || b[0] > 3) return ST_BAD_ARG;
        if (b[0] == 0) { sand_running = 0; tone(0, 0); }
        else if (b[0] == 1) {
            uint32_t d = get32(b + 1);
            if (d == 0 || d > 1000000000UL) return ST_BAD_ARG;
            sand_total_ms = sand_left_ms = d; sand_running = 1; sand_paused = 0;
        } else sand_paused = (b[0] == 2);
        sand_show();
        return ST_OK;
    case BUZZ:
        if (len != 4) return ST_BAD_ARG;
        tone(get16(b), get16(b + 2));
        return ST_OK;
    case PING:
        return len == 0 ? ST_OK : ST_BAD_ARG;
    default:
        return ST_UNKNOWN;
    }
}

static void handle_frame(uint8_t *raw, uint8_t n) {
    if (n < 4) return;
    uint16_t crc = 0xFFFF;
    for (uint8_t i = 0; i < n - 2; i++) {
        crc ^= (uint16_t)raw[i] << 8;
        for (uint8_t b = 0; b < 8; b++) crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    if (crc != get16(raw + n - 2)) return; /* corrupted: the host will retry */
    uint8_t type = raw[0], seq = raw[1], *body = raw + 2, len = n - 4;
    if (type == SYNC) {
        if (len != 3) return;
        have_last_cmd = 0;
        send_hello(get16(body + 1));
        p_sent = p_tail; /* replay every unacknowledged press */
    } else if (type == PRESS_ACK) {
        if (len != 4 || get16(body + 2) != boot_id) return; /* an ack meant for another boot */
        uint16_t upto = get16(body);
        while (p_tail != p_head && (int16_t)(upto - pbuf[p_tail & (PBUF - 1)].seq) >= 0) {
            if (p_sent == p_tail) p_sent++;
            p_tail++;
            progress_ms = millis();
        }
    } else {
        if (have_last_cmd && seq == last_cmd_seq) { send_ack(seq, last_cmd_status); return; } /* a retry */
        last_cmd_status = run_command(type, body, len);
        last_cmd_seq = seq;
        have_last_cmd = 1;
        send_ack(seq, last_cmd_status);
    }
}

/* COBS-decode the bytes between two delimiters in place. */
static uint8_t frame_in[48], frame_len, frame_overflow;

static void rx_byte(uint8_t c) {
    if (c != 0) {
        if (frame_len < sizeof frame_in) frame_in[frame_len++] = c; else frame_overflow = 1;
        return;
    }
    if (frame_len && !frame_overflow) {
        uint8_t out[48], o = 0, i = 0, ok = 1;
        while (i < frame_len) {
            uint8_t code = frame_in[i];
            if (code == 0 || i + code > frame_len) { ok = 0; break; }
            for (uint8_t k = 1; k < code; k++) out[o++] = frame_in[i + k];
            i += code;
            if (code != 0xFF && i < frame_len) out[o++] = 0;
        }
        if (ok) handle_frame(out, o);
    }
    frame_len = 0;
    frame_overflow = 0;
}

/* ---- main ---------------------------------------------------------------------------- */
/* A watchdog reset leaves the watchdog running: switch it off before anything else. */
void early_wdt_off(void) __attribute__((naked, used, section(".init3")));
void early_wdt_off(void) { MCUSR = 0; wdt_disable(); }

static void setup(void) {
    DDRD &= ~BUTTONS; PORTD |= BUTTONS;                 /* inputs with pull-ups */
    DDRC |= 0x3F; PORTC &= ~0x3F;                       /* player LEDs */
    DDRB |= TIMER_LEDS | _BV(PB3) | _BV(PB5);
    TCCR1A = 0; TCCR1B = _BV(CS11); TIMSK1 = _BV(TOIE1); /* clk/8: 0.5 us ticks */
    TCCR0A = _BV(WGM01); OCR0A = 249; TCCR0B = _BV(CS01) | _BV(CS00); TIMSK0 = _BV(OCIE0A); /* 1 kHz */
    UCSR0A = _BV(U2X0); UBRR0 = 7;                      /* 250000 baud, exact at 16 MHz */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    boot_id = eeprom_read_word((uint16_t *)0) + 1;
    eeprom_update_word((uint16_t *)0, boot_id);
    armed = PIND & BUTTONS;                             /* a button held at boot must be let go first */
    PCMSK2 = BUTTONS; PCIFR = _BV(PCIF2); PCICR = _BV(PCIE2);
    set_sleep_mode(SLEEP_MODE_IDLE);
    wdt_enable(WDTO_500MS); /* a hung box reboots and says HELLO instead of going silent */
    sei();
}

/* Once per elapsed millisecond (caught up if the main loop was busy sending). */
static void tick_ms(void) {
    uint8_t pins = PIND;
    for (uint8_t p = 0; p < NPLAYERS; p++) {
        uint8_t bit = 4u << p;
        if (armed & bit) continue;
        if (!(pins & bit)) { release_ms[p] = 0; continue; }
        if (++release_ms[p] >= REARM_MS) { release_ms[p] = 0; ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { armed |= bit; } }
    }
    sand_tick();
    if (buzz_left_ms && --buzz_left_ms == 0) tone(0, 0);
}

static void housekeeping(uint32_t now_ms) {
    static uint32_t last_beat;
    uint8_t pins = PIND;
    if (p_tail == p_head) progress_ms = now_ms;
    else if (now_ms - progress_ms >= RETRY_MS) {
        p_sent = p_tail; /* no acknowledgement progress for 50 ms: send them all again */
        progress_ms = now_ms;
    }
    if (now_ms - last_beat >= HEARTBEAT_MS) {
        last_beat = now_ms;
        uint8_t b[7];
        put32(b, micros());
        b[4] = (uint8_t)(p_head - p_tail);
        b[5] = flags;
        b[6] = (uint8_t)(~pins & BUTTONS) >> 2;
        send_frame(HEARTBEAT, b, sizeof b);
        PINB = _BV(PB5); /* toggle the heartbeat LED */
    }
}

int main(void) {
    setup();
    send_hello(0);
    for (;;) {
        wdt_reset();
        while (rx_tail != rx_head) {
            uint8_t c = rx_buf[rx_tail];
            rx_tail = (uint8_t)(rx_tail + 1) & (RXBUF - 1);
            rx_byte(c);
        }
        take_presses();
        if (ms_flag) {
            static uint32_t done_ms;
            ms_flag = 0;
            uint32_t now = millis();
            while (done_ms != now) { done_ms++; tick_ms(); }
            housekeeping(now);
        }
        while (p_sent != p_head) {
            struct press pr = pbuf[p_sent & (PBUF - 1)];
            uint8_t b[9];
            put16(b, pr.seq); b[2] = pr.player; put32(b + 3, pr.t); put16(b + 7, boot_id);
            send_frame(PRESS, b, sizeof b);
            p_sent++;
        }
        cli();
        if (rx_tail == rx_head && !ms_flag && p_sent == p_head && raw_tail == raw_head) {
            sleep_enable(); sei(); sleep_cpu(); sleep_disable();
        }
        sei();
    }
}
