#!/usr/bin/env bash
# make fuzz: builds activity-fuzz and runs every fuzz target for FUZZ_RUNS inputs (docs/fuzzing.md).
#
# With the toolchain's libFuzzer (compiler-rt's fuzzer_no_main archive) the build is
# coverage-guided and under AddressSanitizer; without it, the seeded mutation fuzzer runs.
# New inputs libFuzzer finds go to .build/fuzz/corpus/<target>, never into the repository's
# Tests/FuzzCorpus; a failing input is saved under .build/fuzz/artifacts/ and ends the run.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
RUNS=${FUZZ_RUNS:-1000000}
TARGETS=${FUZZ_TARGETS:-manifest desktop-entry url template}
SCRATCH=${FUZZ_SCRATCH:-.build/fuzz}
ENGINE=${FUZZ_ENGINE:-auto}

toolchain=$(dirname "$(dirname "$(command -v swiftc)")")
runtime=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-"$(uname -m)".a 2>/dev/null | head -n 1 || true)
if [ "$ENGINE" = auto ]; then ENGINE=$([ -n "$runtime" ] && echo libfuzzer || echo mutation); fi

if [ "$ENGINE" = libfuzzer ]; then
    [ -n "$runtime" ] || { echo "fuzz: no libclang_rt.fuzzer_no_main in $toolchain" >&2; exit 1; }
    # The program keeps its own main and calls LLVMFuzzerRunDriver (the -DLIBFUZZER branch of
    # activity-fuzz): -sanitize=fuzzer would link libFuzzer's main too and clash with it.
    nice -n 10 "$SWIFT" build -c release --product activity-fuzz --scratch-path "$SCRATCH/libfuzzer" \
        -Xswiftc -sanitize=address \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
        -Xswiftc -DLIBFUZZER -Xlinker "$runtime" -Xlinker -lstdc++
    binary="$SCRATCH/libfuzzer/release/activity-fuzz"
else
    nice -n 10 "$SWIFT" build -c release --product activity-fuzz --scratch-path "$SCRATCH/mutation"
    binary="$SCRATCH/mutation/release/activity-fuzz"
fi

mkdir -p "$SCRATCH/artifacts"
for target in $TARGETS; do
    start=$(date +%s)
    if [ "$ENGINE" = libfuzzer ]; then
        mkdir -p "$SCRATCH/corpus/$target"
        # Swift's backtracer would symbolicate every crash slowly; libFuzzer prints its own.
        SWIFT_BACKTRACE=enable=no "$binary" "$target" -runs="$RUNS" -max_len=16384 -timeout=10 \
            -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$SCRATCH/artifacts/$target-" \
            "$SCRATCH/corpus/$target" "Tests/FuzzCorpus/$target" 2>"$SCRATCH/$target.log" \
            || { tail -n 40 "$SCRATCH/$target.log" >&2; exit 1; }
        inputs=$(grep -E '^stat::number_of_executed_units' "$SCRATCH/$target.log" | awk '{print $2}')
    else
        (cd "$SCRATCH/artifacts" && "$OLDPWD/$binary" "$target" --runs "$RUNS" --seed "${FUZZ_SEED:-1}" \
            "$OLDPWD/Tests/FuzzCorpus/$target") | tee "$SCRATCH/$target.log"
        inputs=$(grep -oE '[0-9]+ inputs' "$SCRATCH/$target.log" | tail -n 1 | awk '{print $1}')
    fi
    echo "fuzz: $target ($ENGINE): ${inputs:-?} inputs in $(( $(date +%s) - start )) s, no failure"
done
