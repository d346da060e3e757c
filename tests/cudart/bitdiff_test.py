#!/usr/bin/env python3
"""One bitdiff regression test (docs/BitDiff.md): runs PROGRAM over ptxvm with the interposer
INTERPOSER preloaded, its log written to LOG, and requires that its device-to-host copies agree,
copy for copy, with EXPECTED (the program's log recorded on a GPU, tests/cudart/bitdiff/).

    bitdiff_test.py PROGRAM INTERPOSER EXPECTED LOG

LD_LIBRARY_PATH (ptxvm's libcudart.so.13 and libcuda.so.1) comes from the caller (ctest)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools', 'bitdiff'))
import compare  # noqa: E402


def main(program, interposer, expected, log):
    env = dict(os.environ, BITDIFF_LOG=log)
    env['LD_PRELOAD'] = ' '.join(filter(None, [interposer, os.environ.get('LD_PRELOAD')]))
    if os.path.exists(log):
        os.remove(log)
    run = subprocess.run([program], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, errors='replace')
    sys.stdout.write(run.stdout[-4000:])
    if run.returncode != 0 or 'PASS' not in run.stdout:
        print(f'{os.path.basename(program)} failed (exit status {run.returncode})')
        return 1
    name = os.path.basename(program)
    print(f'A: {log} (ptxvm), B: {expected} (GPU)')
    return 0 if compare.compare_files(name, log, expected) else 1


if __name__ == '__main__':
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
