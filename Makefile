# Activity Broker — the two commands of the README (`make run`, `make test`) and their friends.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
TEST_TIMEOUT ?= 1200
RELEASE_BIN = .build/release

.PHONY: all build release run test deps install uninstall completions format bench clean fuzz sanitize

all: build

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## make run: the broker with the repository's extensions/ on the session bus, or on a
## private bus that it starts (and prints the export line for) when there is none.
## REPLACE=1 takes the name over from a running broker; RUN_STATE=home keeps the usage
## ranking in your real XDG_STATE_HOME (default: .build/run-state).
REPLACE ?= 0
RUN_STATE ?=
run: release
	@REPLACE='$(REPLACE)' RUN_STATE='$(RUN_STATE)' scripts/run-broker.sh $(RELEASE_BIN)

## make test: everything, from a fresh machine (installs what is missing), under a timeout.
test: deps
	scripts/check-layers.py
	scripts/test-limits.sh
	$(SWIFT) build --build-tests
	timeout --kill-after=30 $(TEST_TIMEOUT) $(SWIFT) test --skip-build

## Packages a fresh machine lacks, only those missing (scripts/install-deps.sh holds the list);
## it fails naming the toolchain when $(SWIFT) is not found.
deps:
	@SWIFT='$(SWIFT)' scripts/install-deps.sh

## make bench: private bus + release broker, every figure of BENCHMARKS.md for N+M = 100, 1,000,
## 10,000 (about 2 minutes once built); BENCH_ARGS="--quick" for a short run, "--runs 3" for medians.
BENCH_ARGS ?= --json .build/broker-bench.json
bench: deps
	$(SWIFT) build -c release
	$(RELEASE_BIN)/broker-bench $(BENCH_ARGS)

## make fuzz: every fuzz target for FUZZ_RUNS inputs (default 1,000,000), coverage-guided under
## libFuzzer + AddressSanitizer when the toolchain has it, else the seeded mutation fuzzer
## (FUZZ_ENGINE=mutation forces it); FUZZ_TARGETS="url" for one. See docs/fuzzing.md.
fuzz: deps
	scripts/fuzz.sh

## make sanitize: the test suite built and run under AddressSanitizer (with LeakSanitizer),
## then ThreadSanitizer, each in its own scratch path, for every process the tests start;
## fails on any sanitizer report or failed test (SANITIZERS="thread" for one). docs/fuzzing.md.
sanitize: deps
	scripts/test-limits.sh
	scripts/sanitize.sh

## make install: copies what `make release` built (it compiles nothing and installs no packages).
## BUILD_DIR picks another build (e.g. .build/debug); DESTDIR stages for a package.
BUILD_DIR ?= $(RELEASE_BIN)
BINDIR = $(DESTDIR)$(PREFIX)/bin
DATADIR = $(DESTDIR)$(PREFIX)/share
EXTENSIONSDIR = $(DATADIR)/activity-broker/extensions
# Where systemd and the session bus look for user units and activation files: under PREFIX
# /usr or /usr/local they find them there; a packager with another PREFIX names their
# directories (e.g. `pkg-config --variable=systemduserunitdir systemd`,
# `pkg-config --variable=session_bus_services_dir dbus-1`).
USER_UNIT_DIR ?= $(PREFIX)/lib/systemd/user
DBUS_SERVICE_DIR ?= $(PREFIX)/share/dbus-1/services
UNITDIR = $(DESTDIR)$(USER_UNIT_DIR)
SERVICEDIR = $(DESTDIR)$(DBUS_SERVICE_DIR)
INTERFACEDIR = $(DATADIR)/dbus-1/interfaces
MAN1DIR = $(DATADIR)/man/man1
MAN5DIR = $(DATADIR)/man/man5
BASHCOMPDIR = $(DATADIR)/bash-completion/completions
ZSHCOMPDIR = $(DATADIR)/zsh/site-functions
DOCDIR = $(DATADIR)/doc/activity-broker
# The directories that are ours alone, each before its parent: `make install` creates them and
# `make uninstall` removes each one left empty (a file someone added keeps it). The others
# install may create (bin, man1, the systemd, D-Bus and completion directories) belong to the
# system and other packages, and stay.
OWN_DIRS = $(EXTENSIONSDIR) $(DATADIR)/activity-broker $(DOCDIR)
# Required, then installed only when built (and each with its D-Bus activation file, if any).
BINARIES = activity-broker share
OPTIONAL_BINARIES = activity-reading-list activity-qr activity-sheet activity-browser
# The binary each activation file starts (its systemd user unit is systemd/BINARY.service).
SERVICE_activity-broker = org.activitybroker.Broker1.service
SERVICE_activity-reading-list = org.activitybroker.ReadingList.service
SERVICE_activity-sheet = org.activitybroker.Sheet.service
SERVICE_activity-browser = org.activitybroker.Browser.service
# Paths in systemd/ name /usr/local/; installed files name $(PREFIX)/.
SUBST_PREFIX = sed 's|/usr/local/|$(PREFIX)/|g'
# $(call install_subst,SOURCE,TARGET): SOURCE with $(PREFIX)/ for /usr/local/, installed mode
# 0644 through a temporary file. `sed > TARGET` took its mode from the caller's umask (0600
# under `sudo` with umask 077: the user's systemd and dbus-daemon could not read it) and
# kept the mode of a TARGET already there.
install_subst = { tmp=$$(mktemp) && $(SUBST_PREFIX) $(1) > "$$tmp" && install -m 644 "$$tmp" $(2); \
	status=$$?; rm -f "$$tmp"; [ $$status -eq 0 ]; }

install:
	@for exe in $(BINARIES); do \
		if [ ! -x $(BUILD_DIR)/$$exe ]; then \
			echo "make install: $(BUILD_DIR)/$$exe is not built; run 'make release' first" >&2; exit 1; \
		fi; \
	done
	install -d -m 755 $(OWN_DIRS) $(BINDIR) $(UNITDIR) $(SERVICEDIR) $(INTERFACEDIR) \
		$(MAN1DIR) $(MAN5DIR) $(BASHCOMPDIR) $(ZSHCOMPDIR)
	@for exe in $(BINARIES) $(OPTIONAL_BINARIES); do \
		[ -x $(BUILD_DIR)/$$exe ] || continue; \
		echo "install -m 755 $(BUILD_DIR)/$$exe $(BINDIR)/"; \
		install -m 755 $(BUILD_DIR)/$$exe $(BINDIR)/ || exit 1; \
		case $$exe in \
		activity-broker) service=$(SERVICE_activity-broker) ;; \
		activity-reading-list) service=$(SERVICE_activity-reading-list) ;; \
		activity-sheet) service=$(SERVICE_activity-sheet) ;; \
		activity-browser) service=$(SERVICE_activity-browser) ;; \
		*) continue ;; \
		esac; \
		echo "install -m 644 systemd/$$service $(SERVICEDIR)/ (with $(PREFIX)/)"; \
		$(call install_subst,systemd/$$service,$(SERVICEDIR)/$$service) || exit 1; \
		echo "install -m 644 systemd/$$exe.service $(UNITDIR)/ (with $(PREFIX)/)"; \
		$(call install_subst,systemd/$$exe.service,$(UNITDIR)/$$exe.service) || exit 1; \
	done
	install -m 644 extensions/*.json $(EXTENSIONSDIR)/
	install -m 644 docs/interfaces/*.xml $(INTERFACEDIR)/
	install -m 644 man/share.1 man/activity-broker.1 $(MAN1DIR)/
	install -m 644 man/activity-broker-manifest.5 $(MAN5DIR)/
	install -m 644 completions/share.bash $(BASHCOMPDIR)/share
	install -m 644 completions/_share $(ZSHCOMPDIR)/_share
	install -m 644 docs/manifest.schema.json $(DATADIR)/activity-broker/manifest.schema.json
	install -m 644 LICENSE $(DOCDIR)/LICENSE

## make uninstall: removes exactly what `make install` installs (same PREFIX and DESTDIR), then
## those of OWN_DIRS left empty.
uninstall:
	rm -f $(addprefix $(BINDIR)/,$(BINARIES) $(OPTIONAL_BINARIES))
	rm -f $(addprefix $(EXTENSIONSDIR)/,$(notdir $(wildcard extensions/*.json)))
	rm -f $(addprefix $(UNITDIR)/,$(notdir $(wildcard systemd/activity-*.service)))
	rm -f $(addprefix $(SERVICEDIR)/,$(notdir $(wildcard systemd/org.*.service)))
	rm -f $(addprefix $(INTERFACEDIR)/,$(notdir $(wildcard docs/interfaces/*.xml)))
	rm -f $(MAN1DIR)/share.1 $(MAN1DIR)/activity-broker.1 $(MAN5DIR)/activity-broker-manifest.5
	rm -f $(BASHCOMPDIR)/share $(ZSHCOMPDIR)/_share $(DOCDIR)/LICENSE
	rm -f $(DATADIR)/activity-broker/manifest.schema.json
	@for dir in $(OWN_DIRS); do \
		if [ -d "$$dir" ] && [ -z "$$(ls -A "$$dir")" ]; then \
			echo "rmdir $$dir"; rmdir "$$dir" || exit 1; \
		fi; \
	done

## make completions: regenerates completions/ from the built `share` (a test checks they match).
completions:
	$(BUILD_DIR)/share --completions bash > completions/share.bash
	$(BUILD_DIR)/share --completions zsh > completions/_share

format:
	$(SWIFT) format --in-place --recursive --configuration .swift-format Package.swift Sources Tests

clean:
	rm -rf .build
