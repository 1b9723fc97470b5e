#!/usr/bin/env bash
# make sanitize: builds the test suite under AddressSanitizer and ThreadSanitizer and runs it.
#
# Each sanitizer has its own scratch path (.build/sanitize/<name>), so the builds never
# invalidate each other or the ordinary .build/debug. Reports go to files, not only to the
# test output: the suite runs the built binaries (broker, share, providers) as children, whose
# stderr a test may swallow; any report file fails the run. Suppressions, each explained:
# scripts/tsan.supp, scripts/lsan.supp.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SANITIZERS=${SANITIZERS:-address thread}
TIMEOUT=${SANITIZE_TIMEOUT:-3600}
root=$(pwd)
status=0

for sanitizer in $SANITIZERS; do
    scratch=".build/sanitize/$sanitizer"
    # Other builds share the machine: the sanitizer build yields to them.
    nice -n 10 "$SWIFT" build --build-tests -Xswiftc -sanitize="$sanitizer" --scratch-path "$scratch"
    reports="$root/$scratch/reports"
    rm -rf "$reports" && mkdir -p "$reports"
    case $sanitizer in
    address)
        # LeakSanitizer is off unless SANITIZE_LEAKS=1: in Swift code nearly all it reports
        # are objects still alive at exit whose only pointers LSan cannot recognize (see
        # scripts/lsan.supp), and its exit status 23 fails every test that checks a child's
        # exit code. Memory errors (overflows, use after free) are reported either way.
        export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=${SANITIZE_LEAKS:-0}:detect_stack_use_after_return=1:strict_string_checks=1"
        export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
        ;;
    thread)
        export TSAN_OPTIONS="log_path=$reports/tsan:suppressions=$root/scripts/tsan.supp:print_suppressions=0:second_deadlock_stack=1"
        ;;
    esac
    echo "sanitize: running the suite under the $sanitizer sanitizer"
    start=$(date +%s)
    if ! timeout --kill-after=30 "$TIMEOUT" "$SWIFT" test --skip-build --scratch-path "$scratch" \
        >"$root/$scratch/test.log" 2>&1; then
        echo "sanitize: $sanitizer: the suite failed (see $scratch/test.log)" >&2
        grep -E '✘|error:' "$root/$scratch/test.log" | head -n 40 >&2 || true
        status=1
    fi
    tail -n 1 "$root/$scratch/test.log"
    if [ -n "$(ls -A "$reports")" ]; then
        echo "sanitize: $sanitizer: reports in $scratch/reports:" >&2
        for report in "$reports"/*; do head -n 30 "$report" >&2; done
        status=1
    else
        echo "sanitize: $sanitizer: no sanitizer report ($(( $(date +%s) - start )) s)"
    fi
    unset ASAN_OPTIONS LSAN_OPTIONS TSAN_OPTIONS
done
exit $status
