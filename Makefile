# make test: formatting, vet, staticcheck and every package's tests with the
# race detector, in their short form (12-17 minutes on two cores; README
# "Test it").
# make test-long: the long, exhaustive tests (named TestLong..., skipped by
# -short). CI (.ci/run) runs both.
GO ?= go

.PHONY: test test-long check race browser-note pg-note bench run

test: check browser-note pg-note race

check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	@# The measurements build only with their tag: keep them compiling.
	$(GO) vet -tags measure ./spider/solver ./internal/web/spiderweb
	$(GO) tool staticcheck -tags measure ./spider/solver ./internal/web/spiderweb

# The two browser packages run one after the other, each with its tests
# side by side: together they overfill two cores with Chromium (about
# 680 s each, side by side) where one at a time takes about 220 s each
# (docs/benchmarks.md).
BROWSER_PKGS = cardtable/internal/web/arlweb cardtable/internal/web/spiderweb

# -vet=off: check has run go vet in full on the same code; the subset go
# test runs by default would vet every package again for each build
# (-race and not), about 60 s of a cold build (docs/benchmarks.md).
race:
	$(GO) test -short -race -vet=off -timeout 15m $$($(GO) list ./... | grep -v -x $(addprefix -e ,$(BROWSER_PKGS)))
	$(GO) test -short -race -vet=off -timeout 15m -p 1 $(BROWSER_PKGS)

# The long tests run without the race detector: they are the exhaustive
# versions of short tests that already run under it, and -race would make
# them several times slower for no new coverage of concurrent code.
test-long: browser-note pg-note
	$(GO) test -run '^TestLong' -vet=off -timeout 40m ./...

# The browser tests (internal/web, TestBrowser...) skip without Chromium;
# a skip is silent in go test's summary, so say it here, where it is seen.
browser-note:
	@if [ -z "$$CHROMIUM" ] && ! command -v chromium >/dev/null 2>&1 && \
	   ! command -v chromium-browser >/dev/null 2>&1 && ! command -v google-chrome >/dev/null 2>&1 && \
	   ! command -v chrome >/dev/null 2>&1; then \
	  echo "************************************************************************"; \
	  echo "* Chromium not found: the browser tests (internal/web TestBrowser...)  *"; \
	  echo "* will be SKIPPED. Install it (Debian: apt-get install chromium) or set *"; \
	  echo "* CHROMIUM=/path/to/chrome to run them.                                *"; \
	  echo "************************************************************************"; \
	fi

# The PostgreSQL store tests (internal/storetest and the restart tests)
# start a server of their own and skip without its binaries; say so here.
pg-note:
	@if [ -z "$$PG_BIN" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && \
	   ! command -v initdb >/dev/null 2>&1; then \
	  echo "************************************************************************"; \
	  echo "* PostgreSQL not found: the PostgreSQL store tests will be SKIPPED.    *"; \
	  echo "* Install it (Debian: apt-get install postgresql) or set PG_BIN to the *"; \
	  echo "* directory of initdb and postgres to run them.                        *"; \
	  echo "************************************************************************"; \
	fi

run:
	$(GO) run ./cmd/cardtable

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
