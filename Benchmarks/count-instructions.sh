#!/usr/bin/env bash
# What one request of each suite shape executes, counted by Valgrind's cachegrind
# (Linux; `apt-get install valgrind`): instructions, and the misses of its simulated
# first-level instruction and data caches. Each shape runs twice under cachegrind,
# with 500 and with 2,500 requests (`URLStubsBenchmarks --probe`); the difference of
# the two counts, over 2,000, is one request's share, the setup cancelled out.
# Counts, unlike timings, repeat within about half a percent from run to run.
#
# Usage: Benchmarks/count-instructions.sh [SHAPE...]   (default: every shape)
# Takes a few minutes (cachegrind runs the code some 50 times slower).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind > /dev/null; then
    echo "count-instructions.sh needs Valgrind (on Debian or Ubuntu: apt-get install valgrind)" >&2
    exit 1
fi
swift build -c release --product URLStubsBenchmarks > /dev/null
bin="$(swift build -c release --show-bin-path)/URLStubsBenchmarks"
shapes=("$@")
if [ ${#shapes[@]} -eq 0 ]; then
    shapes=(dictionary template resolving handler-tests tests)
fi
small=500
large=2500

# Prints "instructions I1-misses D1-misses" for a probe of $1 with $2 requests.
count() {
    local out
    out=$(valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null "$bin" --probe "$1" "$2" 2>&1)
    if ! grep -q "0 unexpected" <<< "$out"; then
        echo "the probe of $1 did not answer every request as expected:" >&2
        echo "$out" | grep "probe" >&2
        exit 1
    fi
    awk '/ I +refs:/ {i = $4} / I1 +misses:/ {i1 = $4} / D1 +misses:/ {d1 = $4}
         END {gsub(/,/, "", i); gsub(/,/, "", i1); gsub(/,/, "", d1); print i, i1, d1}' <<< "$out"
}

printf '%-15s %14s %14s %14s   %s\n' "shape" "instructions" "I1 misses" "D1 misses" "(per request, ratio to the shape's baseline)"
declare -A per_request
for shape in "${shapes[@]}"; do
    read -r i_small i1_small d1_small <<< "$(count "$shape" "$small")"
    read -r i_large i1_large d1_large <<< "$(count "$shape" "$large")"
    n=$((large - small))
    per_request[$shape]="$(( (i_large - i_small) / n )) $(( (i1_large - i1_small) / n )) $(( (d1_large - d1_small) / n ))"
    read -r i i1 d1 <<< "${per_request[$shape]}"
    case "$shape" in
        template | resolving) baseline=dictionary ;;
        tests) baseline=handler-tests ;;
        *) baseline="" ;;
    esac
    if [ -n "$baseline" ] && [ -n "${per_request[$baseline]:-}" ]; then
        read -r bi bi1 bd1 <<< "${per_request[$baseline]}"
        ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3fx", a / b }'; }
        printf '%-15s %14s %14s %14s   %s\n' "$shape" "$i ($(ratio "$i" "$bi"))" "$i1 ($(ratio "$i1" "$bi1"))" "$d1 ($(ratio "$d1" "$bd1"))" "against $baseline"
    else
        printf '%-15s %14s %14s %14s\n' "$shape" "$i" "$i1" "$d1"
    fi
done
