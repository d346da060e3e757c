#!/usr/bin/env python3
"""Compares bitdiff logs (docs/BitDiff.md): the device-to-host copies of two runs of a program.

    compare.py LOG_A LOG_B        two logs of one program
    compare.py DIR_A DIR_B        every NAME.log of either directory, program by program

For each program it prints whether its copies agree (the same bytes, hash, kernel launches before
it and runtime function, copy for copy) or the first copy that does not, with both sides' lines
and how many copies differ in all. Exits 0 when every program agrees, 1 when one does not or a
log is missing.
"""
import os
import sys


def load(path):
    """The copies of a log as (seq, bytes, hash, launches, function) tuples of strings."""
    copies = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            fields = line.split()
            if len(fields) != 5:
                raise ValueError(f'{path}:{number}: not a bitdiff line: {line}')
            copies.append(tuple(fields))
    return copies


def describe(copy):
    seq, size, digest, launches, function = copy
    return f'{function} of {size} bytes, hash {digest}, after {launches} launches'


def compare(a, b):
    """None when the copies agree, else a line on the first that does not."""
    differing = sum(1 for x, y in zip(a, b) if x[1:] != y[1:]) + abs(len(a) - len(b))
    for x, y in zip(a, b):
        if x[1:] != y[1:]:
            return (f'copy {x[0]} differs ({differing} of {max(len(a), len(b))} copies differ)\n'
                    f'    A: {describe(x)}\n    B: {describe(y)}')
    if len(a) != len(b):
        longer, side = (a, 'A') if len(a) > len(b) else (b, 'B')
        extra = longer[min(len(a), len(b))]
        return f'A has {len(a)} copies, B {len(b)}; the first only {side} has: copy {extra[0]}, {describe(extra)}'
    return None


def compare_files(name, path_a, path_b):
    """Prints the program's verdict; True when its copies agree."""
    missing = [p for p in (path_a, path_b) if not os.path.exists(p)]
    if missing:
        print(f'{name}: no log {", ".join(missing)}')
        return False
    a, b = load(path_a), load(path_b)
    difference = compare(a, b)
    if difference:
        print(f'{name}: {difference}')
        return False
    print(f'{name}: {len(a)} copies agree')
    return True


def main(argv):
    if len(argv) != 3 or argv[1] in ('-h', '--help'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    a, b = argv[1], argv[2]
    if os.path.isdir(a) and os.path.isdir(b):
        names = sorted({f[:-4] for d in (a, b) for f in os.listdir(d) if f.endswith('.log')})
        results = [compare_files(n, os.path.join(a, n + '.log'), os.path.join(b, n + '.log')) for n in names]
        print(f'{sum(results)} of {len(results)} programs agree')
        return 0 if all(results) else 1
    name = os.path.basename(a)[:-4] if a.endswith('.log') else a
    return 0 if compare_files(name, a, b) else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
