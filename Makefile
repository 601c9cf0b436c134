# tensorsh — the two commands of README.md call these targets.
GO ?= go

.PHONY: run build test vet
build:
	$(GO) build -o bin/tensorsh ./cmd/tensorsh

run: build
	./bin/tensorsh

# The full test suite (what CI runs). testsum prints go test's results and
# then every skipped test with its reason; it fails when a test fails.
test: vet
	$(GO) test -count=1 -timeout 25m -json ./... | $(GO) run ./internal/testenv/testsum

vet:
	$(GO) vet ./...
