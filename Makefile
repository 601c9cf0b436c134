# tensorsh — the two commands of README.md call these targets.
GO ?= go

.PHONY: run build test vet
build:
	$(GO) build -o bin/tensorsh ./cmd/tensorsh

run: build
	./bin/tensorsh

# The full test suite (what CI runs).
test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...
