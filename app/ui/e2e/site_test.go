//go:build !js

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// embeddedBinary builds eval752 the way `make build` does: the WASM files of
// this run placed in the repository's static/web (the build outputs `make
// wasm` writes there, ignored by git), then the binary, which embeds them.
func embeddedBinary(t *testing.T) string {
	t.Helper()
	for _, f := range []string{"app.wasm", "worker.wasm", "wasm_exec.js"} {
		src := filepath.Join(env.static, "web", f)
		dst := filepath.Join(env.root, "static", "web", f)
		a, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(dst); err != nil || !bytes.Equal(a, b) {
			if err := os.WriteFile(dst, a, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	bin := filepath.Join(t.TempDir(), "eval752")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/eval752")
	cmd.Dir = env.root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestBinaryServesFromEmptyFolder: the binary alone, copied into an empty
// folder and run there (no static/ beside it, no --dir), serves the page;
// the demo loads (its bundle made in memory by the binary) with the CLI's
// counts and no request leaves the origin; export-static from that folder
// writes a complete site; --dir still overrides (a folder without the page
// is refused, naming the missing file).
func TestBinaryServesFromEmptyFolder(t *testing.T) {
	built := embeddedBinary(t)
	empty := t.TempDir()
	bin := filepath.Join(empty, "eval752")
	if err := copyFile(built, bin); err != nil {
		t.Fatal(err)
	}
	os.Chmod(bin, 0o755)
	run := t.TempDir() // the working directory: nothing in it
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir = run
	cmd.Stderr = os.Stderr
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no address: %v", err)
	}
	go io.Copy(io.Discard, out)
	base := strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(line, "serving ")), "/")

	b := newBrowser(t)
	b.openURL(base + "/")
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	v := cliValidate(t, env.demo)
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("embedded page: counts %d/%d, CLI %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
	b.assertPrivateAt(base)

	site := filepath.Join(run, "site")
	ex := exec.Command(bin, "export-static", "site")
	ex.Dir = run
	if o, err := ex.CombinedOutput(); err != nil {
		t.Fatalf("export-static from an empty folder: %v\n%s", err, o)
	}
	for _, f := range []string{"index.html", "app.js", "app-worker.js", "web/app.wasm", "web/worker.wasm", "web/wasm_exec.js", "web/worker.js", "web/hooks.js", "web/eval752.css", "web/demo.eval752.zip"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("export-static: %s missing", f)
		}
	}
	demoBytes, _ := os.ReadFile(env.demo)
	if got, _ := os.ReadFile(filepath.Join(site, "web", "demo.eval752.zip")); !bytes.Equal(got, demoBytes) {
		t.Error("the exported demo bundle differs from `eval752 demo`'s")
	}

	bad := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--dir", run)
	bad.Dir = run
	o, err := bad.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(o), "web/app.wasm is missing") {
		t.Errorf("serve --dir of a folder without the page: %v\n%s", err, o)
	}
}

// TestBundleSite: `export-static --bundle A B OUT` writes a site that a
// plain file server (net/http's FileServer, knowing nothing of eval752)
// hosts; opened, it loads A and B from its own origin with no click and
// reaches ready with the counts `eval752 validate A B` prints; every request
// stays on that origin; with the file server gone, a reload still opens
// and scores them (the service worker cached the files).
func TestBundleSite(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.eval752.zip")
	if out, err := exec.Command(env.bin, "demo", "--bad", bad).CombinedOutput(); err != nil {
		t.Fatalf("demo --bad: %v\n%s", err, out)
	}
	extra := filepath.Join(dir, "extra.jsonl")
	os.WriteFile(extra, []byte(`{"id":"x-1","type":"freeform","inputs":{"text":"hi"},"answer":"x"}`+"\n"+`{"id":"x-2","type":"freeform"`+"\n"), 0o644)
	cmd := exec.Command(env.bin, "validate", "--json", "bad.eval752.zip", "extra.jsonl")
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("validate: %v", err)
	}
	var v validateOut
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if v.Counts.Error == 0 {
		t.Fatal("the two files have no error: the counts would prove little")
	}

	site := filepath.Join(t.TempDir(), "site")
	if o, err := exec.Command(env.bin, "export-static", "--dir", env.static, "--bundle", bad, extra, site).CombinedOutput(); err != nil {
		t.Fatalf("export-static --bundle: %v\n%s", err, o)
	}
	for _, f := range []string{"index.html", "web/bundle/bad.eval752.zip", "web/bundle/extra.jsonl"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("the site lacks %s", f)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: http.FileServer(http.Dir(site))}
	go hs.Serve(ln)
	base := "http://" + ln.Addr().String()

	b := newBrowser(t)
	b.openURL(base + "/")
	b.waitReady(60 * time.Second)
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("bundle site: counts %d/%d, `eval752 validate` %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
	if n := eval[int](b, `document.querySelectorAll('[data-test=input]').length`); n < 2 {
		t.Errorf("the overview lists %d files, want both bundle files", n)
	}
	b.assertPrivateAt(base)

	// offline: the service worker has the page, the WASM and both files
	b.waitJS(`!!navigator.serviceWorker.controller`, 30*time.Second)
	b.waitJS(`(async () => { const ks = await caches.keys(); if (!ks.length) return false;
		const c = await caches.open(ks[0]); return !!(await c.match('/web/bundle/bad.eval752.zip')) && !!(await c.match('/web/bundle/extra.jsonl')); })()`, 30*time.Second)
	hs.Close()
	if _, err := http.Get(base + "/"); err == nil {
		t.Fatal("the file server still answers")
	}
	b.do(chromedp.Reload())
	b.waitClient()
	b.waitReady(60 * time.Second)
	if e, w := b.counts(); e != v.Counts.Error || w != v.Counts.Warning {
		t.Errorf("bundle site offline: counts %d/%d, `eval752 validate` %d/%d", e, w, v.Counts.Error, v.Counts.Warning)
	}
}
