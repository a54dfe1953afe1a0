# eval752 — the Makefile is the single entry point.
#   make run    build everything and serve the page (demo bundle one click away)
#   make test   lint + every test, including the real-browser end-to-end tests
GO        ?= go
ADDR      ?= 127.0.0.1:8752
WEB       := static/web
WASM_ENV  := GOOS=js GOARCH=wasm
WASMFLAGS := -trimpath -ldflags='-s -w'
CORE_PKGS  = $$($(GO) list ./app/... | grep -v '/app/ui')

.PHONY: all build cli wasm demo run test test-short lint bench bench-go bench-trec bench-page bench-curve bench-ajv export clean readme fuzz

all: build wasm demo

# bin/eval752 embeds the built page (static/page.go), so the WASM comes first.
build: wasm
	$(GO) build -trimpath -o bin/eval752 ./cmd/eval752

# the CLI alone (no page embedded: serve then needs --dir static)
cli:
	$(GO) build -trimpath -o bin/eval752 ./cmd/eval752

wasm:
	mkdir -p $(WEB)
	$(WASM_ENV) $(GO) build $(WASMFLAGS) -o $(WEB)/app.wasm ./wasm/app
	$(WASM_ENV) $(GO) build $(WASMFLAGS) -o $(WEB)/worker.wasm ./wasm/worker
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WEB)/wasm_exec.js
	$(GO) run scripts/brotli.go $(WEB)/app.wasm $(WEB)/worker.wasm

demo: build
	mkdir -p $(WEB)
	bin/eval752 demo --force $(WEB)/demo.eval752.zip

run: all
	bin/eval752 serve --addr $(ADDR)

export: all
	bin/eval752 export-static --force dist

lint:
	@out=$$(gofmt -l app cmd wasm static scripts); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(WASM_ENV) $(GO) vet ./wasm/... ./app/ui/...
	@for p in $(CORE_PKGS); do \
	  if $(GO) list -deps $$p | grep -qE 'maxence-charriere/go-app|^syscall/js$$'; then \
	    echo "core package $$p depends on go-app or syscall/js"; exit 1; fi; \
	done; echo "core packages are free of go-app and syscall/js"

test: lint all
	$(GO) test -race -count=1 -timeout 40m ./...

test-short: lint
	$(GO) test -count=1 -short ./...

bench: bench-go bench-trec

bench-go:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./app/trec/ ./app/dataset/ ./app/score/ ./app/engine/ ./app/stats/

bench-trec: cli
	bash scripts/bench-trec.sh
	bash scripts/bench-score.sh

# the scripted browser benchmark (headless Chromium; not in make test):
# PAGE_SIZES="10k 100k 1m" SET_1M=DIR make bench-page (DIR: items.jsonl + results.jsonl of 1M items)
PAGE_SIZES ?= 10k 100k
bench-page: all
	bash scripts/bench-page.sh $(PAGE_SIZES)
# make bench-curve: CPU time and peak RSS of validate / score / audit /
# results at 10k, 100k, 1M (and 5M where the input fits) records of each
# kind of scripts/gen-sets.go, with the ratio to the previous size. Not part
# of `make test` or `make bench` (tens of minutes of CPU at 1M). Options go
# through CURVE_ARGS, e.g. make bench-curve CURVE_ARGS='-k b2 -c audit -n 10000,100000'
CURVE_ARGS ?=
bench-curve: cli
	EVAL752_BIN=bin/eval752 bash scripts/bench-curve.sh $(CURVE_ARGS)

# make fuzz: every fuzz target (func Fuzz… in app/) for FUZZTIME each, one
# after the other; a crasher is written by go test to the package's
# testdata/fuzz/<Target>/ (commit it: plain `go test` then replays it).
FUZZTIME     ?= 20s
FUZZPARALLEL ?= 2
fuzz:
	@grep -rn --include='*_test.go' '^func Fuzz' app | sort | while IFS=: read -r file _ decl; do \
	  fn=$$(echo "$$decl" | sed -E 's/^func (Fuzz[A-Za-z0-9_]*).*/\1/'); pkg=./$$(dirname "$$file"); \
	  echo "== $$pkg $$fn ($(FUZZTIME))"; \
	  $(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) -parallel $(FUZZPARALLEL) "$$pkg" || exit 1; \
	done

readme: cli
	bin/eval752 doc-tables --update README.md
	bin/eval752 doc-tables --update docs/metrics.md

clean:
	rm -rf bin dist
	find $(WEB) -mindepth 1 ! -name README.md -delete

# validate on a b-2 set beside ajv (needs node + npm; not part of make bench):
# make bench-ajv [B2_SET=dir] [N=100000]
.PHONY: bench-ajv
bench-ajv:
	bash scripts/bench-ajv.sh $(B2_SET)
