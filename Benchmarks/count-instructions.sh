#!/usr/bin/env bash
# What one request of each shape of the benchmark's `shapes` section executes,
# counted by Valgrind's cachegrind (Linux; `apt-get install valgrind`): instructions,
# and the misses of its simulated first-level instruction cache (I1) and data cache
# (D1). Each shape is a counted run (`URLStubsBenchmarks --counted SHAPE REQUESTS`),
# made twice under cachegrind, with 500 and with 2,500 requests; the difference of
# the two counts, over 2,000, is one request's share, the setup cancelled out.
# From run to run, instructions and I1 misses repeat within about half a percent
# (the threads' interleaving still varies), D1 misses within a few percent.
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
    shapes=(dictionary template resolving handler-computed computed handler-tests tests dictionary-unmatched unmatched unmatched-many scopes stubs)
fi
small=500
large=2500

# Prints "instructions I1-misses D1-misses" of a counted run of $1 with $2 requests,
# or fails (the caller stops) when a request was answered other than expected or
# cachegrind's summary cannot be read.
count() {
    local out
    out=$(valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null "$bin" --counted "$1" "$2" 2>&1) || true
    if ! grep -q "^counted run $1: $2 requests, 0 unexpected$" <<< "$out"; then
        echo "the counted run of $1 ($2 requests) did not answer every request as expected:" >&2
        grep -E "counted run|error" <<< "$out" >&2 || echo "$out" | tail -5 >&2
        return 1
    fi
    awk '/ I +refs:/ {i = $4} / I1 +misses:/ {i1 = $4} / D1 +misses:/ {d1 = $4}
         END {gsub(/,/, "", i); gsub(/,/, "", i1); gsub(/,/, "", d1); print i, i1, d1}' <<< "$out"
}

# The counts of $1 with $2 requests, checked to be three numbers, into `counts`.
read_counts() {
    local line
    line=$(count "$1" "$2") || exit 1
    read -r -a counts <<< "$line"
    if [ ${#counts[@]} -ne 3 ] || ! [[ "${counts[0]}${counts[1]}${counts[2]}" =~ ^[0-9]+$ ]]; then
        echo "could not read cachegrind's summary for $1 ($2 requests): \"$line\"" >&2
        exit 1
    fi
}

# $1 over $2, as a ratio with three decimals.
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3fx", a / b }'
}

printf '%-15s %16s %16s %16s   %s\n' "shape" "instructions" "I1 misses" "D1 misses" "(per request; ratio to the shape's baseline)"
declare -A per_request
for shape in "${shapes[@]}"; do
    read_counts "$shape" "$small"
    small_counts=("${counts[@]}")
    read_counts "$shape" "$large"
    n=$((large - small))
    i=$(( (counts[0] - small_counts[0]) / n ))
    i1=$(( (counts[1] - small_counts[1]) / n ))
    d1=$(( (counts[2] - small_counts[2]) / n ))
    per_request[$shape]="$i $i1 $d1"
    case "$shape" in
        template | resolving) baseline=dictionary ;;
        computed) baseline=handler-computed ;;
        tests) baseline=handler-tests ;;
        unmatched) baseline=dictionary-unmatched ;;
        *) baseline="" ;;
    esac
    if [ -n "$baseline" ] && [ -n "${per_request[$baseline]:-}" ]; then
        read -r bi bi1 bd1 <<< "${per_request[$baseline]}"
        printf '%-15s %16s %16s %16s   %s\n' "$shape" "$i ($(ratio "$i" "$bi"))" "$i1 ($(ratio "$i1" "$bi1"))" "$d1 ($(ratio "$d1" "$bd1"))" "against $baseline"
    else
        printf '%-15s %16s %16s %16s\n' "$shape" "$i" "$i1" "$d1"
    fi
done
