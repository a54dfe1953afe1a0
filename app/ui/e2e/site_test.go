//go:build !js

package e2e

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
