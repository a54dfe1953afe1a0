package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"eval752/app/cli"
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
	srv := httptest.NewServer(Secure(Site(os.DirFS(dir))))
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
	srv := httptest.NewServer(Secure(Site(os.DirFS(dir))))
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

// treeSums is the sha256 of every file under dir (relative path → hex).
func treeSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[rel] = fmt.Sprintf("%x", sha256.Sum256(b))
		return nil
	})
	return m
}

// export-static never writes over the page it exports: OUT equal to the
// --dir folder, inside it or containing it is refused (exit 2, one line),
// as is a folder that is not empty without --force; the built page keeps
// every byte. Before this rule, `export-static static` truncated
// static/web/*.wasm and overwrote the tracked static/app.css.
func TestExportNeverWritesOverItsPage(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "static")
	os.Rename(staticDir(t), dir)
	before := treeSums(t, dir)
	site := filepath.Join(root, "site")
	os.MkdirAll(site, 0o755)
	os.WriteFile(filepath.Join(site, "keep.txt"), []byte("the user's"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--dir", dir, dir}, "is the input"},
		{[]string{"--dir", dir, "--force", dir}, "is the input"},
		{[]string{"--dir", dir, "--force", filepath.Join(dir, "web")}, "inside the input folder"},
		{[]string{"--dir", dir, "--force", root}, "contains the input"},
		{[]string{"--dir", dir, site}, "not empty"},
	} {
		var out, errb bytes.Buffer
		code := cli.Main(context.Background(), append([]string{"export-static"}, c.args...), &out, &errb)
		if code != cli.ExitCantRun || !strings.Contains(errb.String(), c.want) || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("export-static %v: exit %d, stderr %q; want exit 2 and one line saying %q", c.args, code, errb.String(), c.want)
		}
	}
	if after := treeSums(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("the page's files changed:\nbefore %v\nafter  %v", before, after)
	}
	if b, _ := os.ReadFile(filepath.Join(site, "keep.txt")); string(b) != "the user's" {
		t.Error("a refused OUT was changed")
	}
	// --force replaces the folder; the new site is complete and no
	// temporary folder is left beside it
	var out, errb bytes.Buffer
	if code := cli.Main(context.Background(), []string{"export-static", "--dir", dir, "--force", site}, &out, &errb); code != cli.ExitOK {
		t.Fatalf("export-static --force: exit %d, %s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(site, "keep.txt")); err == nil {
		t.Error("--force kept the old folder's files")
	}
	for _, f := range []string{"index.html", "app.js", "web/app.wasm", "web/eval752.css"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("%s missing from the site", f)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".*")); len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

// Each representation of a file has its own strong ETag: the gzip form of a
// WASM file is the identity form's tag with "-gz", both answers say Vary:
// Accept-Encoding, and a conditional request is answered 304 only for the
// representation it names. Before, go-app gave every answer one ETag (the
// build version), so a cache holding the gzip body could be told it was
// the identity one.
func TestETagPerRepresentation(t *testing.T) {
	dir := staticDir(t)
	raw := bytes.Repeat([]byte("\x00asm wasm body "), 4096)
	os.WriteFile(filepath.Join(dir, "web", "app.wasm"), raw, 0o644)
	srv := httptest.NewServer(Secure(Site(os.DirFS(dir))))
	defer srv.Close()
	get := func(path, enc, inm string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", enc) // set: the transport adds no gzip of its own
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	gz := get("/web/app.wasm", "gzip", "")
	id := get("/web/app.wasm", "identity", "")
	gzTag, idTag := gz.Header.Get("ETag"), id.Header.Get("ETag")
	sum := sha256.Sum256(raw)
	if want := fmt.Sprintf(`"%x"`, sum[:10]); idTag != want {
		t.Errorf("identity ETag %s, want %s (the file's sha256 prefix)", idTag, want)
	}
	if gzTag != strings.TrimSuffix(idTag, `"`)+`-gz"` || gz.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("gzip answer: ETag %s, Content-Encoding %q; want %s-gz and gzip", gzTag, gz.Header.Get("Content-Encoding"), idTag)
	}
	for _, r := range []*http.Response{gz, id} {
		if r.Header.Get("Vary") != "Accept-Encoding" || r.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("Vary %q, Cache-Control %q", r.Header.Get("Vary"), r.Header.Get("Cache-Control"))
		}
	}
	for _, c := range []struct {
		enc, inm string
		code     int
	}{
		{"gzip", gzTag, http.StatusNotModified},
		{"identity", idTag, http.StatusNotModified},
		{"gzip", idTag, http.StatusOK},     // holds the identity form, would get gzip: send it
		{"identity", gzTag, http.StatusOK}, // and the reverse
	} {
		if r := get("/web/app.wasm", c.enc, c.inm); r.StatusCode != c.code {
			t.Errorf("Accept-Encoding %s, If-None-Match %s: %d, want %d", c.enc, c.inm, r.StatusCode, c.code)
		}
	}
	// a file with one form has one tag, and a new build a new one
	css := get("/web/eval752.css", "gzip", "").Header.Get("ETag")
	os.WriteFile(filepath.Join(dir, "app.css"), []byte("rebuilt"), 0o644)
	if again := get("/web/eval752.css", "gzip", "").Header.Get("ETag"); css == "" || strings.HasSuffix(css, `-gz"`) || again == css {
		t.Errorf("eval752.css ETag %s, after a rebuild %s", css, again)
	}
}

// serve's server has every timeout: a header within 10 s, an idle
// keep-alive connection closed after 30 s, and a write timeout sized for
// the largest file on a 256 kbit/s link (9.19 MB, today's app.wasm: 9.19e6 /
// 32,000 B/s = 287 s to send, + 30 s).
func TestServerTimeouts(t *testing.T) {
	dir := staticDir(t)
	os.WriteFile(filepath.Join(dir, "web", "app.wasm"), make([]byte, 9_190_000), 0o644)
	srv := newServer(os.DirFS(dir))
	if srv.ReadHeaderTimeout != 10*time.Second || srv.IdleTimeout != 30*time.Second || srv.ReadTimeout != 30*time.Second {
		t.Errorf("read header %v, idle %v, read %v", srv.ReadHeaderTimeout, srv.IdleTimeout, srv.ReadTimeout)
	}
	if want := 317*time.Second + 187500*time.Microsecond; srv.WriteTimeout != want {
		t.Errorf("write timeout %v, want %v", srv.WriteTimeout, want)
	}
	if got := WriteTimeout(0); got != time.Minute {
		t.Errorf("write timeout of an empty page %v, want the 60 s floor", got)
	}
}

// An idle keep-alive connection is closed by `serve` (the command itself,
// with the idle timeout shortened for the test); before, it stayed open
// for as long as the client kept it.
func TestServeClosesIdleConnections(t *testing.T) {
	defer func(d time.Duration) { idleTimeout = d }(idleTimeout)
	idleTimeout = 300 * time.Millisecond
	dir := staticDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- cli.Main(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--dir", dir}, pw, io.Discard)
		pw.Close()
	}()
	defer func() { cancel(); <-done }()
	line := make([]byte, 256)
	n, err := pr.Read(line)
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	addr := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(string(line[:n])), "serving http://"), "/")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /web/worker.js HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	start := time.Now()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = conn.Read(make([]byte, 1))
	if err != io.EOF {
		t.Fatalf("idle connection: read gave %v after %v, want EOF (closed by the server)", err, time.Since(start))
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("idle connection closed after %v, want ≈ 300 ms", el)
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
