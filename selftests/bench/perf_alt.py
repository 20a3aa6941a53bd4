#!/usr/bin/env python3
# perf_alt.py CTL ACK SECONDS: make bench's alternation for perf record
# (bench_walk_alt.sh), which was started with -D -1 --control fifo:CTL,ACK:
# enabled in the even 400 ms periods of CLOCK_MONOTONIC, disabled in the odd
# ones, for SECONDS. A perf that does not open its fifos, or leaves a
# command unanswered, within 10 s ends it with status 1: never a hang.
import errno, os, select, sys, time
ctl, ack, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
P = 400_000_000


def fail(why):
    sys.exit("perf_alt: " + why)


deadline = time.monotonic() + 10
while True:  # no reader of CTL yet: ENXIO, not a blocked open
    try:
        c = os.open(ctl, os.O_WRONLY | os.O_NONBLOCK)
        break
    except OSError as e:
        if e.errno != errno.ENXIO or time.monotonic() > deadline:
            fail("perf does not read " + ctl)
        time.sleep(0.02)
a = os.open(ack, os.O_RDONLY | os.O_NONBLOCK)


def command(cmd):
    os.write(c, cmd)
    if not select.select([a], [], [], 10)[0] or not os.read(a, 16):
        fail("perf did not answer " + cmd.decode().strip())


end = time.monotonic_ns() + int(secs * 1e9)
state = None
while time.monotonic_ns() < end:
    even = (time.monotonic_ns() // P) % 2 == 0
    if even != state:
        command(b'enable\n' if even else b'disable\n')
        state = even
    nxt = (time.monotonic_ns() // P + 1) * P
    time.sleep(max(0, nxt - time.monotonic_ns()) / 1e9)
os.write(c, b'disable\n')
