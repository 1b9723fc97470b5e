# Activity Broker — the two commands of the README (`make run`, `make test`) and their friends.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
TEST_TIMEOUT ?= 1200
RELEASE_BIN = .build/release

.PHONY: all build release run test deps install format bench clean

all: build

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## make run: the broker with the repository's extensions/ on the session bus, or on a
## private bus that it starts (and prints the export line for) when there is none.
run: release
	@scripts/run-broker.sh $(RELEASE_BIN)

## make test: everything, from a fresh machine (installs what is missing), under a timeout.
test: deps
	scripts/check-layers.py
	$(SWIFT) build --build-tests
	timeout --kill-after=30 $(TEST_TIMEOUT) $(SWIFT) test --skip-build

## Packages a fresh machine lacks: libdbus headers, the daemon, dbus-send, tmux and python3 for tests.
deps:
	@scripts/install-deps.sh

## make bench: private bus + release broker, every figure of BENCHMARKS.md for N+M = 100, 1,000,
## 10,000 (about 2 minutes once built); BENCH_ARGS="--quick" for a short run, "--runs 3" for medians.
BENCH_ARGS ?= --json .build/broker-bench.json
bench: deps
	$(SWIFT) build -c release
	$(RELEASE_BIN)/broker-bench $(BENCH_ARGS)

install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/activity-broker/extensions \
		$(DESTDIR)$(PREFIX)/lib/systemd/user $(DESTDIR)$(PREFIX)/share/dbus-1/services
	install -m 755 $(RELEASE_BIN)/activity-broker $(RELEASE_BIN)/share $(DESTDIR)$(PREFIX)/bin/
	@for exe in activity-reading-list activity-qr; do \
		if [ -x $(RELEASE_BIN)/$$exe ]; then install -m 755 $(RELEASE_BIN)/$$exe $(DESTDIR)$(PREFIX)/bin/; fi; \
	done
	install -m 644 extensions/*.json $(DESTDIR)$(PREFIX)/share/activity-broker/extensions/
	sed 's|/usr/local/bin|$(PREFIX)/bin|g' systemd/activity-broker.service \
		> $(DESTDIR)$(PREFIX)/lib/systemd/user/activity-broker.service
	@for f in systemd/org.*.service; do \
		sed 's|/usr/local/bin|$(PREFIX)/bin|g' $$f > $(DESTDIR)$(PREFIX)/share/dbus-1/services/$$(basename $$f); \
	done

format:
	$(SWIFT) format --in-place --recursive --configuration .swift-format Package.swift Sources Tests

clean:
	rm -rf .build
