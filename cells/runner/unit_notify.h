/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The service manager's readiness protocol (sd_notify(3)): one datagram of
 * newline-separated assignments ("READY=1", "STATUS=...") to the socket
 * named by $NOTIFY_SOCKET. Written out rather than linked from libsystemd:
 * the protocol is a stable interface meant to be implemented so, and the
 * tool also runs where no systemd is (the test guests, boards without it).
 */
#ifndef COLORGUARD_UNIT_NOTIFY_H
#define COLORGUARD_UNIT_NOTIFY_H

/*
 * Send state to the service manager: 1 sent, 0 no manager asked for it
 * (no $NOTIFY_SOCKET), -errno on failure.
 */
int unit_notify(const char *state);

#endif
