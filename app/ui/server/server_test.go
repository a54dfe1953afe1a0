package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// staticDir lays out a minimal static folder: every required file with
// recognisable content.
func staticDir(t *testing.T) string {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "web"), 0o755)
	for _, f := range WebFiles {
		if f.Optional {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f.Rel)), []byte("content of "+f.Rel), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSecureHandler(t *testing.T) {
	dir := staticDir(t)
	srv := httptest.NewServer(Secure(Handler(dir)))
	defer srv.Close()
	tests := []struct {
		method, path string
		code         int
		ctype, body  string
	}{
		{"GET", "/", 200, "text/html", "eval752"},
		{"HEAD", "/web/worker.wasm", 200, "application/wasm", ""},
		{"GET", "/web/worker.js", 200, "text/javascript; charset=utf-8", "content of worker.js"},
		{"GET", "/web/eval752.css", 200, "text/css; charset=utf-8", "content of app.css"},
		{"GET", "/web/hooks.js", 200, "text/javascript; charset=utf-8", "content of hooks.js"},
		// hooks.js must run before the pre-rendered controls can be used:
		// a plain blocking script (no defer/async) in the page.
		{"GET", "/", 200, "text/html", `<script src="/web/hooks.js"></script>`},
		{"GET", "/", 200, "text/html", `data-test="privacy"`},
		{"GET", "/app.js", 200, "application/javascript", ""},
		{"GET", "/web/demo.eval752.zip", 404, "", ""}, // optional and absent
		{"POST", "/", 405, "", ""},
		{"DELETE", "/web/app.wasm", 405, "", ""},
		{"GET", "/web/static.go", 404, "", ""},
		{"GET", "/web/../worker.js", 404, "", ""},
		{"GET", "/robots.txt", 404, "", ""},
		{"GET", "/web/app.wasm?x=1", 404, "", ""},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			sb.Write(buf[:n])
			if err != nil {
				break
			}
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, resp.StatusCode, tc.code)
			continue
		}
		if resp.Header.Get("Content-Security-Policy") != CSP || resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s %s: security headers missing: %v", tc.method, tc.path, resp.Header)
		}
		if tc.ctype != "" && resp.Header.Get("Content-Type") != tc.ctype {
			t.Errorf("%s %s: Content-Type %q, want %q", tc.method, tc.path, resp.Header.Get("Content-Type"), tc.ctype)
		}
		if tc.body != "" && !strings.Contains(sb.String(), tc.body) {
			t.Errorf("%s %s: body lacks %q", tc.method, tc.path, tc.body)
		}
		if tc.path == "/" && tc.method == "GET" {
			// The controls are drawn by the running UI only (the mount
			// replaces pre-rendered nodes): the page says it is starting.
			// go-app writes attributes in map order, so look at whole tags.
			body := sb.String()
			if regexp.MustCompile(`<[^>]*data-test="(demo-button|file-input)"`).MatchString(body) {
				t.Errorf("GET /: the pre-rendered page has a file input or demo button")
			}
			tag := regexp.MustCompile(`<span[^>]*data-test="status"[^>]*>[^<]*<`).FindString(body)
			if !strings.Contains(tag, `data-state="starting"`) || !strings.Contains(tag, ">starting…<") {
				t.Errorf("GET /: pre-rendered status %q, want data-state \"starting\" and the words \"starting…\"", tag)
			}
		}
	}
}

func TestVersionFollowsFiles(t *testing.T) {
	dir := staticDir(t)
	v1 := buildVersion(dir)
	if v1 != buildVersion(dir) {
		t.Error("version differs for the same files")
	}
	os.WriteFile(filepath.Join(dir, "web", "worker.wasm"), []byte("rebuilt"), 0o644)
	if v2 := buildVersion(dir); v2 == v1 || !strings.HasPrefix(v2, "0.") {
		t.Errorf("version %q after a rebuild (was %q): want a new version prefixed by version.Version", v2, v1)
	}
}

func TestCSPHasNoInlineAllowance(t *testing.T) {
	for _, bad := range []string{"unsafe-inline", " 'unsafe-eval'", "*", "http:", "https:"} {
		if strings.Contains(CSP, bad) {
			t.Errorf("CSP allows %s: %s", bad, CSP)
		}
	}
	for _, need := range []string{"'wasm-unsafe-eval'", "connect-src 'self'", "default-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(CSP, need) {
			t.Errorf("CSP lacks %s", need)
		}
	}
}

// TestWasmGzip: a browser that accepts gzip gets the WASM compressed (and
// decoding gives the file's bytes); one that does not gets it as is. Both
// answers say they vary with Accept-Encoding.
func TestWasmGzip(t *testing.T) {
	dir := staticDir(t)
	raw := bytes.Repeat([]byte("\x00asm wasm body "), 4096)
	if err := os.WriteFile(filepath.Join(dir, "web", "app.wasm"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Secure(Handler(dir)))
	defer srv.Close()
	get := func(enc string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", srv.URL+"/web/app.wasm", nil)
		req.Header.Set("Accept-Encoding", enc) // set by hand: the client then does not decode
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, body := get("gzip, deflate, br")
	if resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Vary") != "Accept-Encoding" || len(body) >= len(raw) {
		t.Fatalf("gzip: encoding %q vary %q, %d bytes for %d", resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"), len(body), len(raw))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if dec, _ := io.ReadAll(zr); !bytes.Equal(dec, raw) {
		t.Error("the gzip body does not decode to the file")
	}
	resp, body = get("identity")
	if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, raw) {
		t.Errorf("identity: encoding %q, %d bytes", resp.Header.Get("Content-Encoding"), len(body))
	}
}

// TestPageFSFolder: --dir serves the folder as is (the demo only if it is
// there) and a folder without the built files is refused, naming the file.
func TestPageFSFolder(t *testing.T) {
	dir := staticDir(t)
	fsys, err := PageFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(fsys, "web/demo.eval752.zip"); err == nil {
		t.Error("a folder without the demo bundle has one")
	}
	os.Remove(filepath.Join(dir, "web", "worker.wasm"))
	if _, err := PageFS(dir); err == nil || !strings.Contains(err.Error(), "web/worker.wasm is missing") {
		t.Errorf("folder without worker.wasm: %v", err)
	}
}

// TestWithFile: the in-memory file is served beside the folder's.
func TestWithFile(t *testing.T) {
	dir := staticDir(t)
	fsys := withFile{FS: os.DirFS(dir), name: "web/demo.eval752.zip", data: []byte("zip bytes")}
	srv := httptest.NewServer(Secure(HandlerFS(fsys)))
	defer srv.Close()
	for path, want := range map[string]string{"/web/demo.eval752.zip": "zip bytes", "/web/worker.js": "content of worker.js"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != want {
			t.Errorf("GET %s: %d %q, want %q", path, resp.StatusCode, b, want)
		}
	}
}
