#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qemu-cpus.py SOCKET [VMLINUX]: every vCPU's registers from the QEMU
monitor on the UNIX socket SOCKET, each program counter followed by the
symbol of VMLINUX it falls in. Used by e2e_qemu (e2e/lib.sh) on a guest
that timed out or fell silent; a monitor that does not answer means QEMU
itself is stuck, not the guest."""

import bisect
import re
import socket
import subprocess
import sys
import time

# the program counter (MIPS "pc=", sparc "pc:", powerpc "NIP") and the
# return address (MIPS "ra")
PC = re.compile(r"\b(pc|PC|nip|NIP|ra)\s*[=:]?\s*(?:0x)?([0-9a-fA-F]{8,16})\b")


def answer(sock, seconds):
    out = b""
    deadline = time.time() + seconds
    while not out.endswith(b"(qemu) ") and time.time() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            break
        out += chunk
    return out.decode(errors="replace").replace("\r", "")


def symbols(vmlinux):
    try:
        nm = subprocess.run(["nm", "-n", vmlinux], capture_output=True,
                            text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return [], []
    addrs, names = [], []
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW" and not f[2].startswith((".L", "$")):
            addrs.append(int(f[0], 16))
            names.append(f[2])
    return addrs, names


def main():
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(2)
    try:
        sock.connect(sys.argv[1])
        answer(sock, 10)
        sock.sendall(b"info registers -a\n")
        text = answer(sock, 20)
    except OSError as e:
        print("QEMU's monitor: %s" % e)
        return
    if not text.endswith("(qemu) "):
        print("QEMU's monitor did not answer in 20 s: QEMU itself is stuck")
    addrs, names = symbols(sys.argv[2]) if len(sys.argv) > 2 else ([], [])
    for line in text.splitlines():
        if "\x1b" in line:		# the monitor's echo of the command
            continue
        print(line)
        for m in PC.finditer(line) if addrs else ():
            pc = int(m.group(2), 16)
            i = bisect.bisect_right(addrs, pc) - 1
            if i >= 0 and pc - addrs[i] < 0x100000:
                print("    %s -> %s+%#x" % (m.group(1), names[i], pc - addrs[i]))


main()
