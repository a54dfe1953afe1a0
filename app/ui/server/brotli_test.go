package server

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// TestWasmBrotli: with app.wasm.br beside app.wasm (as `make wasm` writes
// it), a browser that accepts br gets it (decoding gives the file's
// bytes), one that accepts only gzip gets gzip, and a .br older than the
// WASM (rebuilt without it) is not sent.
func TestWasmBrotli(t *testing.T) {
	dir := staticDir(t)
	raw := bytes.Repeat([]byte("\x00asm wasm body "), 4096)
	wasm := filepath.Join(dir, "web", "app.wasm")
	if err := os.WriteFile(wasm, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	var br bytes.Buffer
	bw := brotli.NewWriterLevel(&br, 11)
	bw.Write(raw)
	bw.Close()
	if err := os.WriteFile(wasm+".br", br.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Secure(Handler(dir)))
	defer srv.Close()
	get := func(enc string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", srv.URL+"/web/app.wasm", nil)
		req.Header.Set("Accept-Encoding", enc)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	resp, body := get("gzip, deflate, br")
	if resp.Header.Get("Content-Encoding") != "br" || resp.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("br: encoding %q vary %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
	}
	if dec, _ := io.ReadAll(brotli.NewReader(bytes.NewReader(body))); !bytes.Equal(dec, raw) {
		t.Error("the br body does not decode to the file")
	}
	if resp, _ := get("gzip"); resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("gzip only: encoding %q", resp.Header.Get("Content-Encoding"))
	}
	if resp, _ := get("br;q=0, gzip"); resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("br refused: encoding %q", resp.Header.Get("Content-Encoding"))
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(wasm+".br", old, old)
	if resp, _ := get("br, gzip"); resp.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("stale .br: encoding %q, want gzip", resp.Header.Get("Content-Encoding"))
	}
}
