# The one test command (README): formatting, vet, staticcheck and every test
# with the race detector. CI runs exactly `make test`.
GO ?= go

.PHONY: test check race fuzz bench run

test: check race

check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

race:
	$(GO) test -race -timeout 25m ./...

run:
	$(GO) run ./cmd/cardtable

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
