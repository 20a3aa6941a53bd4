#!/usr/bin/env python3
# perf_alt.py CTL ACK SECONDS: make bench's alternation for perf record
# (bench_walk_alt.sh), which was started with -D -1 --control fifo:CTL,ACK:
# enabled in the even 400 ms periods of CLOCK_MONOTONIC, disabled in the odd
# ones, for SECONDS.
import os, sys, time
ctl, ack, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
P = 400_000_000
a = open(ack, 'rb', buffering=0)
c = os.open(ctl, os.O_WRONLY)
end = time.monotonic_ns() + int(secs * 1e9)
state = None
while time.monotonic_ns() < end:
    now = time.monotonic_ns()
    even = (now // P) % 2 == 0
    if even != state:
        os.write(c, b'enable\n' if even else b'disable\n')
        a.read(5)
        state = even
    nxt = (time.monotonic_ns() // P + 1) * P
    time.sleep(max(0, nxt - time.monotonic_ns()) / 1e9)
os.write(c, b'disable\n')
