// Package e2e drives the built page in a real headless Chromium: the two
// WASM files, the static assets and `eval752 serve` on a random loopback
// port, exactly as a user gets them. Expected numbers always come from the
// CLI run on the same file (`eval752 validate --json`, `score --json`), an
// independent front end over the same core.
//
// Run: go test ./app/ui/e2e (needs Debian's chromium: apt-get install -y
// chromium). The tests build app.wasm, worker.wasm and bin/eval752 (or reuse
// the Makefile's outputs when they are newer than every source file), start
// `eval752 serve` on 127.0.0.1 with a random port, and drive the page.
// `-screenshot=PATH` writes the page with the demo loaded (docs/screenshot.png).
//
// The test files are excluded from js/wasm builds (chromedp does not build
// there); this file keeps the package visible to `GOOS=js go vet ./...`.
package e2e
