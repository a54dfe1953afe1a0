// Package server hosts the page: `eval752 serve` runs a loopback HTTP server
// that answers GET and HEAD for the app's known files and nothing else (no
// upload, no write endpoint, nothing that could receive the user's data), and
// `eval752 export-static DIR` writes the same files as a static site.
//
// Every response carries a Content-Security-Policy that lets the page load
// only its own files and run WebAssembly, so even a bug in the page could not
// send a byte to another origin.
package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"html"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/ui"
	"eval752/app/version"
)

// CSP is the Content-Security-Policy of every response. 'wasm-unsafe-eval'
// is what WebAssembly.instantiateStreaming needs; nothing else is relaxed:
// no inline scripts or styles, no other origin for anything.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; " +
	"img-src 'self' data:; style-src 'self'; worker-src 'self'; object-src 'none'; " +
	"base-uri 'self'; frame-ancestors 'none'; form-action 'none'"

// webFile is one file served under /web/: where it lives below the static
// directory (build outputs under web/, hand-written assets at the top).
type webFile struct {
	URL  string // "/web/app.wasm"
	Rel  string // path below the static dir
	Type string // Content-Type
	// Optional files may be absent (the demo bundle before `make demo`).
	Optional bool
}

// siteFile is a bundle a static site opens at start: its URL in the site
// (/web/bundle/NAME), the name the page gives it, its sha256.
type siteFile struct{ URL, Name, SHA256 string }

// WebFiles are the only files served under /web/.
var WebFiles = []webFile{
	{URL: "/web/app.wasm", Rel: "web/app.wasm", Type: "application/wasm"},
	{URL: "/web/worker.wasm", Rel: "web/worker.wasm", Type: "application/wasm"},
	{URL: "/web/wasm_exec.js", Rel: "web/wasm_exec.js", Type: "text/javascript; charset=utf-8"},
	{URL: "/web/demo.eval752.zip", Rel: "web/demo.eval752.zip", Type: "application/zip", Optional: true},
	{URL: "/web/worker.js", Rel: "worker.js", Type: "text/javascript; charset=utf-8"},
	{URL: "/web/hooks.js", Rel: "hooks.js", Type: "text/javascript; charset=utf-8"},
	{URL: "/web/eval752.css", Rel: "app.css", Type: "text/css; charset=utf-8"},
	{URL: "/web/icon.svg", Rel: "icon.svg", Type: "image/svg+xml"},
	{URL: "/web/icon-192.png", Rel: "icon-192.png", Type: "image/png"},
	{URL: "/web/icon-512.png", Rel: "icon-512.png", Type: "image/png"},
}

// appFiles are the files go-app's handler generates, plus the page itself.
var appFiles = map[string]bool{
	"/": true, "/app.js": true, "/app.css": true, "/wasm_exec.js": true,
	"/app-worker.js": true, "/manifest.webmanifest": true,
}

// resources resolves /web/ URLs to themselves (so the page's URLs stay
// root-relative, as go-app's loader needs) and serves them from dir.
type resources struct {
	fsys  fs.FS
	files map[string]webFile
	gz    *gzCache
}

// gzCache holds, per file version, the sha256 of each served file (its
// ETag) and the gzip form of the WASM files (9 MB each raw, 2.4 MB
// compressed) for browsers that accept it, each made once.
type gzCache struct {
	mu sync.Mutex
	m  map[string]*gzEntry
}

type gzEntry struct {
	mod  time.Time
	size int64
	sum  string // hex sha256 prefix of the file's bytes
	data []byte // the gzip form, nil until asked for
}

// entry returns the cache entry of the current version of the file at path.
func (c *gzCache) entry(path string, st fs.FileInfo) *gzEntry {
	if e, ok := c.m[path]; ok && e.mod.Equal(st.ModTime()) && e.size == st.Size() {
		return e
	}
	if c.m == nil {
		c.m = map[string]*gzEntry{}
	}
	e := &gzEntry{mod: st.ModTime(), size: st.Size()}
	c.m[path] = e
	return e
}

// etag returns the strong ETag of the file's identity form (fh is left
// where it was found: at the start).
func (c *gzCache) etag(path string, st fs.FileInfo, fh io.ReadSeeker) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(path, st)
	if e.sum == "" {
		h := sha256.New()
		if _, err := io.Copy(h, fh); err != nil {
			return "", err
		}
		if _, err := fh.Seek(0, io.SeekStart); err != nil {
			return "", err
		}
		e.sum = hex.EncodeToString(h.Sum(nil))[:20]
	}
	return `"` + e.sum + `"`, nil
}

// gzipETag is the ETag of the gzip form of the file whose identity ETag is
// tag: a different representation has a different strong ETag (RFC 9110
// §8.8.3), so a cache never answers one with the other.
func gzipETag(tag string) string { return strings.TrimSuffix(tag, `"`) + `-gz"` }

// get returns the gzip form of the file at path (read from fh).
func (c *gzCache) get(path string, st fs.FileInfo, fh io.Reader) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(path, st)
	if e.data != nil {
		return e.data, nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := io.Copy(zw, fh); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	e.data = buf.Bytes()
	return e.data, nil
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool { return accepts(r, "gzip") }

// accepts reports whether the request's Accept-Encoding allows enc.
func accepts(r *http.Request, enc string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		e, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(e), enc) && strings.TrimSpace(q) != "q=0" {
			return true
		}
	}
	return false
}

// brotliFile opens the brotli form of the file at name — name+".br", as
// `make wasm` writes it (scripts/brotli.go, quality 11: 27 % smaller than
// gzip -9) — when the request accepts br and that file is at least as new
// as the file itself (a WASM rebuilt without it goes out gzip-compressed).
func brotliFile(fsys fs.FS, rel string, st fs.FileInfo, r *http.Request) (io.ReadSeekCloser, bool) {
	if !accepts(r, "br") {
		return nil, false
	}
	f, err := fsys.Open(rel + ".br")
	if err != nil {
		return nil, false
	}
	bst, err := f.Stat()
	rs, seekable := f.(io.ReadSeekCloser)
	if err != nil || !seekable || bst.ModTime().Before(st.ModTime()) || bst.Size() == 0 {
		f.Close()
		return nil, false
	}
	return rs, true
}

func (r resources) Resolve(loc string) string {
	if loc == "" || loc == "/" {
		return "/"
	}
	if strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://") {
		return loc
	}
	if strings.HasPrefix(loc, "web/") {
		return "/" + loc
	}
	return loc
}

func (r resources) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	f, ok := r.files[req.URL.Path]
	if !ok {
		http.NotFound(w, req)
		return
	}
	fh, err := r.fsys.Open(f.Rel)
	if err != nil {
		http.NotFound(w, req)
		return
	}
	defer fh.Close()
	rs, ok := fh.(io.ReadSeeker)
	if !ok {
		http.Error(w, "file not seekable", http.StatusInternalServerError)
		return
	}
	st, err := fh.Stat()
	if err != nil || st.IsDir() {
		http.NotFound(w, req)
		return
	}
	w.Header().Set("Content-Type", f.Type)
	w.Header().Set("Cache-Control", "no-cache")
	tag, err := r.gz.etag(f.URL, st, rs)
	if err != nil {
		http.Error(w, "cannot read the file", http.StatusInternalServerError)
		return
	}
	if f.Type == "application/wasm" {
		w.Header().Add("Vary", "Accept-Encoding")
		if br, ok := brotliFile(r.fsys, f.Rel, st, req); ok {
			defer br.Close()
			w.Header().Set("Content-Encoding", "br")
			w.Header().Set("ETag", strings.TrimSuffix(tag, `"`)+`-br"`)
			http.ServeContent(w, req, "", st.ModTime(), br)
			return
		}
		if acceptsGzip(req) {
			data, err := r.gz.get(f.URL, st, rs)
			if err == nil {
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Set("ETag", gzipETag(tag))
				http.ServeContent(w, req, "", st.ModTime(), bytes.NewReader(data))
				return
			}
			rs.Seek(0, io.SeekStart)
		}
	}
	w.Header().Set("ETag", tag)
	http.ServeContent(w, req, "", st.ModTime(), rs)
}

// Site is the page's handler as `serve` hosts it: the files under /web/ are
// answered by the file server directly (each representation with its own
// ETag: the sha256 of the file, "-gz" added for the gzip form), the rest by
// go-app's handler (which gives every answer one ETag, the build version).
func Site(fsys fs.FS) http.Handler {
	h := HandlerFS(fsys)
	res := h.Resources.(resources)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := res.files[r.URL.Path]; ok {
			res.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Timeouts of the server `serve` runs (see the README's Reliability
// section): a request's header within 10 s, its whole read within 30 s (GET
// and HEAD carry no body), an idle keep-alive connection closed after 30 s,
// and a response written within WriteTimeout.
var (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	idleTimeout       = 30 * time.Second
)

// SlowLink is the slowest link WriteTimeout is sized for: 256 kbit/s.
const SlowLink = 32_000 // bytes per second

// WriteTimeout is the time to write the largest served file (largest bytes)
// on SlowLink, plus 30 s (the first request of a WASM file also gzips it),
// and at least 60 s: today's app.wasm (9.2 MB identity form) gets ≈ 317 s.
func WriteTimeout(largest int64) time.Duration {
	return max(60*time.Second, 30*time.Second+time.Duration(largest)*time.Second/SlowLink)
}

// largestFile is the size of the largest file of WebFiles present in fsys.
func largestFile(fsys fs.FS) int64 {
	var n int64
	for _, f := range WebFiles {
		if st, err := fs.Stat(fsys, f.Rel); err == nil {
			n = max(n, st.Size())
		}
	}
	return n
}

// newServer is the http.Server of `serve` for the page in fsys (the
// embedded page or a --dir folder).
func newServer(fsys fs.FS) *http.Server {
	return &http.Server{
		Handler:           Secure(Site(fsys)),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
		WriteTimeout:      WriteTimeout(largestFile(fsys)),
		MaxHeaderBytes:    64 << 10,
	}
}

// Handler returns the go-app handler for the page with its files under dir
// (the repository's static/ folder, or an exported site's root is not
// needed: export-static copies files out of dir).
func Handler(dir string) *app.Handler { return HandlerFS(os.DirFS(dir)) }

// HandlerFS is Handler for the page's files in fsys (laid out as static/:
// web/app.wasm, worker.js, …; the binary's embedded page or a folder). The
// version is version.Version plus a hash of the built files, so a new build
// replaces the service worker's cache and an unchanged one keeps working
// offline.
func HandlerFS(fsys fs.FS) *app.Handler { return siteHandler(fsys, nil) }

// siteHandler is HandlerFS for a site that opens bundles at start
// (export-static --bundle): each bundle's URL is named by a
// <meta name="eval752-bundle"> of the page, the service worker caches the
// files, and their sha256 goes into the version.
func siteHandler(fsys fs.FS, bundles []siteFile) *app.Handler {
	ui.Register()
	files := map[string]webFile{}
	var cacheable []string
	for _, f := range WebFiles {
		files[f.URL] = f
		if f.URL == "/web/app.wasm" {
			continue // go-app caches it already
		}
		if f.Optional {
			if _, err := fs.Stat(fsys, f.Rel); err != nil {
				continue
			}
		}
		cacheable = append(cacheable, f.URL)
	}
	var metas []string
	version := versionFS(fsys)
	if len(bundles) > 0 {
		h := sha256.New()
		io.WriteString(h, version)
		for _, b := range bundles {
			cacheable = append(cacheable, b.URL)
			metas = append(metas, `<meta name="eval752-bundle" content="`+html.EscapeString(b.URL)+`" data-name="`+html.EscapeString(b.Name)+`">`)
			io.WriteString(h, "\n"+b.URL+" "+b.SHA256)
		}
		version = version + "-site-" + hex.EncodeToString(h.Sum(nil))[:12]
	}
	return &app.Handler{
		RawHeaders:  metas,
		Name:        "eval752",
		ShortName:   "eval752",
		Title:       "eval752 — benchmark validator and scorer",
		Description: "Validate and score evaluation benchmarks in your browser. Nothing leaves this browser.",
		Author:      "eval752",
		Lang:        "en",
		Icon: app.Icon{
			Default: "/web/icon-192.png",
			Large:   "/web/icon-512.png",
			SVG:     "/web/icon.svg",
		},
		BackgroundColor: "#f7f7f5",
		ThemeColor:      "#1f4e79",
		LoadingLabel:    "Loading eval752 {progress}%",
		Styles:          []string{"/web/eval752.css"},
		// hooks.js is a blocking script in <head>: it must listen before the
		// pre-rendered page can take a drop (see static/hooks.js).
		Scripts:            []string{"/web/hooks.js"},
		CacheableResources: cacheable,
		Resources:          resources{fsys: fsys, files: files, gz: &gzCache{}},
		Version:            version,
		// app.wasm may travel gzip-compressed: the loader's progress
		// counts the bytes it decodes, so it needs the raw size
		WasmContentLength: wasmSize(fsys),
	}
}

// wasmSize is app.wasm's size in bytes ("" when it is not built yet).
func wasmSize(fsys fs.FS) string {
	st, err := fs.Stat(fsys, "web/app.wasm")
	if err != nil {
		return ""
	}
	return strconv.FormatInt(st.Size(), 10)
}

// buildVersion is version.Version plus 12 hex digits of the sha256 of every
// served file (in WebFiles order), so the service worker cache follows the
// build, not the server start.
func buildVersion(dir string) string { return versionFS(os.DirFS(dir)) }

func versionFS(fsys fs.FS) string {
	h := sha256.New()
	for _, f := range WebFiles {
		fh, err := fsys.Open(f.Rel)
		if err != nil {
			io.WriteString(h, f.Rel+":absent\n")
			continue
		}
		io.WriteString(h, f.Rel+"\n")
		io.Copy(h, fh)
		fh.Close()
	}
	return version.Version + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// Secure wraps the app handler: GET and HEAD only, only known paths, and the
// security headers on every answer.
func Secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", CSP)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Cross-Origin-Resource-Policy", "same-origin")
		hd.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			hd.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed: this server only hosts the app's files", http.StatusMethodNotAllowed)
			return
		}
		p := r.URL.Path
		known := appFiles[p]
		if !known {
			for _, f := range WebFiles {
				if f.URL == p {
					known = true
					break
				}
			}
		}
		if !known || r.URL.RawQuery != "" && p != "/" {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}
