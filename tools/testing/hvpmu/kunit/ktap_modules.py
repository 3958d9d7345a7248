#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the kernel logs of KUnit test modules loaded one by one into one
KTAP document per module, for kunit.py parse.

A module's suites run when it is loaded and print what built-in suites
print at boot, but its top-level header (none before Linux 6.x's module
executor, "KTAP version 1" and "1..N" since) and the numbering of its suite
results differ. The guest (e2e/guest/kunit.sh) prints each module's log
between "KUNIT-MODULE-BEGIN <module>" and "KUNIT-MODULE-END <module>", every
line prefixed "KUNIT-LOG: "; this writes OUTDIR/<module>.ktap with one
top-level header, the suites as printed and their results numbered 1..N.

usage: ktap_modules.py RESULTS OUTDIR     (prints the modules it wrote)
       ktap_modules.py --param-skips LOG (prints LOG, a kernel log with
                                          KTAP, with param_skips() applied)
"""
import os
import re
import sys

TIMESTAMP = re.compile(r'^\[ *[0-9]+\.[0-9]+\] ?')
SUITE_START = re.compile(r'^    KTAP version [0-9]+$')
SUITE_HEADER = re.compile(r'^    # Subtest: ')
TOP_HEADER = re.compile(r'^(KTAP version [0-9]+|1\.\.[0-9]+)$')
TOP_RESULT = re.compile(r'^(not ok|ok) [0-9]+ ')
ALL_SKIPPED = re.compile(r'^( +)# (\S+): pass:0 fail:0 skip:([0-9]+) total:\3$')
SKIP_DIRECTIVE = re.compile(r' # SKIP ?(.*)$')


def param_skips(lines):
    """Linux 6.1 prints the results of a parameterised case's parameters
    without their "# SKIP" directive ("ok 1 at-max, polled"), so kunit.py
    would count each as a pass; the case's own result, after the line
    "# case: pass:0 fail:0 skip:N total:N", has the directive and the
    reason. Give that directive to each parameter's result without one."""
    lines = list(lines)
    for i, line in enumerate(lines):
        m = ALL_SKIPPED.match(line)
        if not m or i + 1 >= len(lines):
            continue
        parent = SKIP_DIRECTIVE.search(lines[i + 1])
        if not parent:
            continue
        child = ' ' * (len(m.group(1)) + 4)
        j = i - 1
        while j >= 0 and lines[j].startswith(child):
            if (lines[j][len(child):].startswith('ok ') and
                    not SKIP_DIRECTIVE.search(lines[j])):
                lines[j] += ' # SKIP ' + parent.group(1)
            j -= 1
    return lines


def ktap(lines):
    """The KTAP document of one module's log lines (timestamps removed)."""
    try:
        first = next(i for i, l in enumerate(lines) if SUITE_START.match(l))
    except StopIteration:
        return None
    body, n = [], 0
    for line in param_skips(lines[first:]):
        if TOP_HEADER.match(line):
            continue
        m = TOP_RESULT.match(line)
        if m:
            n += 1
            line = TOP_RESULT.sub(f'{m.group(1)} {n} ', line, count=1)
        body.append(line)
    nsuites = sum(1 for l in body if SUITE_HEADER.match(l))
    return '\n'.join(['KTAP version 1', f'1..{nsuites}'] + body) + '\n'


def main():
    if sys.argv[1] == '--param-skips':
        with open(sys.argv[2], errors='replace') as f:
            lines = [TIMESTAMP.sub('', l.rstrip('\r\n')) for l in f]
        print('\n'.join(param_skips(lines)))
        return
    results, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    module, lines = None, []
    with open(results, errors='replace') as f:
        for raw in f:
            raw = raw.rstrip('\r\n')
            if raw.startswith('KUNIT-MODULE-BEGIN '):
                module, lines = raw.split(' ', 1)[1], []
            elif raw.startswith('KUNIT-MODULE-END ') and module:
                doc = ktap(lines)
                with open(os.path.join(outdir, module + '.log'), 'w') as log:
                    log.write('\n'.join(lines) + '\n')
                if doc:
                    with open(os.path.join(outdir, module + '.ktap'), 'w') as out:
                        out.write(doc)
                print(module, 'ok' if doc else 'no-ktap')
                module = None
            elif module and raw.startswith('KUNIT-LOG: '):
                lines.append(TIMESTAMP.sub('', raw[len('KUNIT-LOG: '):]))


if __name__ == '__main__':
    main()
