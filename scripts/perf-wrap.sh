#!/bin/sh
# perf-wrap.sh: runs "$@" in this very process with `perf record` attached, for BROKER_BENCH_WRAP.
#
# The bench's harness waits until the process it spawned owns the broker's name, so a wrapper
# that runs the broker as its child (`perf record -- broker`) is never seen owning it: this one
# attaches perf to its own pid, then execs the broker in place. Software clock (no hardware
# counters in this VM), call graphs; valgrind's callgrind aborts on the broker (valgrind 3.19).
#   BROKER_BENCH_WRAP=scripts/perf-wrap.sh .build/release/broker-bench --hot-paths --sizes 1000
#   perf report -i /tmp/broker-perf.data
perf record -e cpu-clock -F 4000 -g -o /tmp/broker-perf.data -p $$ >/tmp/broker-perf.log 2>&1 &
sleep 0.3  # perf attached before the exec
exec "$@"
