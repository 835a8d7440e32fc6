/* The wire protocol shared by the firmware and the host driver (hardware/PROTOCOL.md).
 * Keep in step with referee/board/protocol.py. No AVR dependency. */
#ifndef SPIT_PROTOCOL_H
#define SPIT_PROTOCOL_H

#define PROTOCOL_MAJOR 1
#define PROTOCOL_MINOR 0
#define FIRMWARE_MAJOR 1
#define FIRMWARE_MINOR 0
#define FIRMWARE_PATCH 0

/* Decoded frame: [seq][command][length][payload...][crc_hi][crc_lo];
 * COBS-encoded on the wire, each frame preceded and followed by 0x00. */
#define FRAME_MAX_PAYLOAD 40
#define FRAME_OVERHEAD 5
#define FRAME_MAX_DECODED (FRAME_MAX_PAYLOAD + FRAME_OVERHEAD)
#define FRAME_MAX_ENCODED (FRAME_MAX_DECODED + 2) /* COBS adds 1 byte per 254, +1 */
#define FRAME_DELIMITER 0x00

/* Host -> board */
#define CMD_IDENTIFY 0x01   /* [host_major, host_minor] */
#define CMD_PING 0x02       /* [] heartbeat */
#define CMD_SET_LIGHTS 0x10 /* n x [light, pattern, duration_ms_hi, duration_ms_lo], 1 <= n <= LIGHT_COUNT */
#define CMD_ALL_OFF 0x11    /* [] lights off, buzzer quiet, countdown cancelled */
#define CMD_BEEP 0x12       /* n x [freq_hi, freq_lo, duration_hi, duration_lo], 1 <= n <= 4, freq 0 = rest */
#define CMD_COUNTDOWN 0x13  /* [step_ms_hi, step_ms_lo] 3, 2, 1, spit, timed on the board; step 0 cancels */
#define CMD_SELF_TEST 0x14  /* [] every light in turn and a rising scale */
#define CMD_GET_STATUS 0x15 /* [] */

/* Board -> host */
#define RESPONSE_ACK_BIT 0x80 /* ack of command C has command byte 0x80 | C */
#define RESPONSE_NAK 0xFF     /* [refused command, reason] */
#define BOARD_HELLO 0xC0      /* seq 0: sent at boot, payload as the identify answer */
#define BOARD_EVENT 0xC1      /* seq 0: [kind, argument, uptime_ms (4 bytes)] */

#define NAK_UNKNOWN_COMMAND 1
#define NAK_BAD_LENGTH 2
#define NAK_BAD_ARGUMENT 3
#define NAK_NO_SESSION 4
#define NAK_INCOMPATIBLE 5

#define EVENT_COUNTDOWN 1     /* argument 3, 2, 1, then 0 for "spit" */
#define EVENT_SAFE_STATE 2    /* heartbeat lost: lights off, session closed */
#define EVENT_SELF_TEST_DONE 3

/* Lights (LED outputs), in the order of the wiring table. */
#define LIGHT_A_LEGAL 0
#define LIGHT_A_ILLEGAL 1
#define LIGHT_B_LEGAL 2
#define LIGHT_B_ILLEGAL 3
#define LIGHT_PILE0_A 4
#define LIGHT_PILE0_B 5
#define LIGHT_PILE1_A 6
#define LIGHT_PILE1_B 7
#define LIGHT_CENTRE 8
#define LIGHT_COUNT 9

#define PATTERN_OFF 0
#define PATTERN_ON 1
#define PATTERN_BLINK_SLOW 2 /* 2 Hz */
#define PATTERN_BLINK_FAST 3 /* 8 Hz */
#define PATTERN_COUNT 4

#define STATUS_SESSION 0x01   /* an identify opened a session since boot / last safe state */
#define STATUS_COUNTDOWN 0x02 /* countdown running */
#define STATUS_SAFE 0x04      /* board went to safe state after heartbeat loss */
#define STATUS_SELF_TEST 0x08 /* self-test pattern running */
#define STATUS_BUZZER 0x10    /* notes playing or queued */

#define HEARTBEAT_TIMEOUT_MS 2000u
#define COUNTDOWN_MIN_STEP_MS 200u
#define COUNTDOWN_MAX_STEP_MS 3000u

#endif
