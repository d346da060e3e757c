#!/usr/bin/env bash
# Check that every tests/corpus/ptx/*.ptx is accepted by the local ptxas for
# the target named in its own .target line. Relocatable PTX (built with
# -rdc=true, i.e. with unresolved .extern functions such as the device-side
# launch API) is assembled with --compile-only (-c).
# Usage: tests/corpus/verify_ptxas.sh [ptx files...]   (default: all)
set -u
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
DIR=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then set -- "$DIR"/ptx/*.ptx; fi
pass=0; pass_c=0; fail=0
declare -A per_target
for f in "$@"; do
    target=$(grep -m1 -E '^[[:space:]]*\.target' "$f" | sed -E 's/^[[:space:]]*\.target[[:space:]]+//; s/[,[:space:]].*$//')
    if [ -z "$target" ]; then echo "FAIL (no .target) $f"; fail=$((fail+1)); continue; fi
    if err=$("$PTXAS" -arch="$target" "$f" -o /dev/null 2>&1); then
        pass=$((pass+1))
    elif grep -q "Unresolved extern" <<<"$err" && err=$("$PTXAS" -c -arch="$target" "$f" -o /dev/null 2>&1); then
        pass_c=$((pass_c+1))
    else
        fail=$((fail+1))
        echo "FAIL $(basename "$f") [$target]"
        echo "$err" | grep -v "^ptxas info\|Advisory" | head -5 | sed 's/^/    /'
        continue
    fi
    per_target[$target]=$(( ${per_target[$target]:-0} + 1 ))
done
echo "== ptxas ($("$PTXAS" --version | tail -1)) =="
for t in $(printf '%s\n' "${!per_target[@]}" | sort -V); do printf '  %-8s %4d\n' "$t" "${per_target[$t]}"; done
echo "files: $(( pass + pass_c + fail ))  accepted: $(( pass + pass_c )) (whole-program: $pass, --compile-only: $pass_c)  rejected: $fail"
[ "$fail" -eq 0 ]
