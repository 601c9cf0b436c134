# tensorsh — the two commands of README.md call these targets.
GO ?= go

.PHONY: run build wasm web test vet lint test-cuda-host
build: wasm
	$(GO) build -o bin/tensorsh ./cmd/tensorsh

# The playground's evaluator (GOOS=js GOARCH=wasm), gzipped, and the Go
# runtime's wasm_exec.js, into web/static, where tensorsh serve embeds
# them. They are built, not checked in (the wasm is 18 MB, 3.9 MB gzipped).
wasm:
	$(GO) generate ./web

# The playground as static files for any web server, in dist/web.
web:
	$(GO) run web/mkwasm.go -o dist/web
	cp web/static/index.html web/static/app.js web/static/style.css dist/web/

run: build
	./bin/tensorsh

# The full test suite (what CI runs). testsum prints go test's results and
# then every skipped test with its reason; it fails when a test fails.
test: vet lint
	$(GO) test -count=1 -timeout 25m -json ./... | $(GO) run ./internal/testenv/testsum

vet:
	$(GO) vet ./...

# The CUDA backend's conformance suite over every dtype on the host device
# (each generated kernel compiled with g++; make test runs ten dtypes).
test-cuda-host:
	TENSORSH_HOST_FULL=1 $(GO) test -count=1 -timeout 60m -run TestHostConformance ./backend/cuda

# staticcheck (from the module proxy, at a fixed version) and go.mod tidy.
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	$(GO) run $(STATICCHECK) ./...
	$(GO) mod tidy -diff
