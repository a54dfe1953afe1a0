package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/cli"
	"eval752/app/demo"
	"eval752/app/finding"
	"eval752/static"
)

func init() {
	cli.Register(cli.Command{Name: "serve", Summary: "host the page on a loopback address (no upload endpoint)", Run: runServe})
	cli.Register(cli.Command{Name: "export-static", Summary: "write the page as a static site any file server can host", Run: runExport})
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8752", "listen address (host:port; port 0 picks a free one)")
	dir := fs.String("dir", "", "serve the page from this folder (web/app.wasm, web/worker.wasm and the assets, as `make wasm` leaves static/) instead of the copy built into the binary")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 serve [--addr 127.0.0.1:8752] [--dir static]\n\n"+
			"Serves the page (built into the binary; --dir serves a folder instead).\n"+
			"The server only answers GET/HEAD for the app's own files:\n"+
			"the files you open in the page are read by your browser and never sent here.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cli.ExitOK
		}
		return cli.ExitCantRun
	}
	page, err := PageFS(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "eval752 serve: %v\n", err)
		return cli.ExitCantRun
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "eval752 serve: %v\n", err)
		return cli.ExitCantRun
	}
	srv := newServer(page)
	// The first line is machine-readable: tests start `serve --addr
	// 127.0.0.1:0` and read the URL from it.
	fmt.Fprintf(stdout, "serving http://%s/\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		return cli.ExitOK
	case err := <-errc:
		fmt.Fprintf(stderr, "eval752 serve: %v\n", err)
		return cli.ExitCantRun
	}
}

// PageFS is the page to serve: the folder dir, or with dir "" the page built
// into the binary (static.Page) with the demo bundle made in memory (the
// binary cannot embed a bundle it writes itself; demo.Build gives the same
// bytes every time). An error says what is missing.
func PageFS(dir string) (fs.FS, error) {
	if dir != "" {
		return os.DirFS(dir), checkFS(os.DirFS(dir), dir)
	}
	if !static.PageBuilt() {
		return nil, errors.New("this binary was built without the page (static/web had no WASM files): build it with `make build`, or pass --dir static after `make wasm`")
	}
	var b bytes.Buffer
	if err := demo.Build(&b); err != nil {
		return nil, err
	}
	return withFile{FS: static.Page, name: "web/demo.eval752.zip", data: b.Bytes()}, checkFS(static.Page, "the embedded page")
}

func checkFS(fsys fs.FS, where string) error {
	for _, f := range WebFiles {
		if f.Optional {
			continue
		}
		if _, err := fs.Stat(fsys, f.Rel); err != nil {
			return fmt.Errorf("%s is missing in %s (run `make wasm` first, or pass --dir)", f.Rel, where)
		}
	}
	return nil
}

// withFile is fsys with one more file, held in memory.
type withFile struct {
	fs.FS
	name string
	data []byte
}

func (w withFile) Open(name string) (fs.File, error) {
	if name != w.name {
		return w.FS.Open(name)
	}
	return &memFile{Reader: bytes.NewReader(w.data), name: path.Base(name), size: int64(len(w.data))}, nil
}

// memFile is an fs.File over bytes (seekable, so it can be served with
// http.ServeContent).
type memFile struct {
	*bytes.Reader
	name string
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f.name, f.size}, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export-static", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "take the page from this folder (as `make wasm` leaves static/) instead of the copy built into the binary")
	force := fs.Bool("force", false, "replace OUT when it is a folder that is not empty")
	var bundles []string
	fs.Func("bundle", "a file the site opens at start (repeatable; `--bundle A B … OUT` takes every file up to OUT)", func(v string) error {
		bundles = append(bundles, v)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 export-static [--dir static] [--force] [--bundle FILE...] OUT\n\n"+
			"With --bundle the site loads those files from its own origin when it opens (no\n"+
			"click, nothing sent anywhere, offline after one visit): a public demo of a benchmark.\n"+
			"Writes index.html, app.js, app-worker.js, manifest, wasm_exec.js and web/ into OUT;\n"+
			"any static file server can host OUT (it works offline after one visit).\n"+
			"OUT is never the --dir folder or a --bundle file, inside or around them; a folder\n"+
			"that is not empty is replaced only with --force.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cli.ExitOK
		}
		return cli.ExitCantRun
	}
	// `--bundle A B OUT`: the files after --bundle's value up to the last
	// argument are bundles too
	args = fs.Args()
	if len(bundles) > 0 && len(args) > 1 {
		bundles, args = append(bundles, args[:len(args)-1]...), args[len(args)-1:]
	}
	if len(args) != 1 {
		fs.Usage()
		return cli.ExitCantRun
	}
	inputs := append([]string(nil), bundles...)
	if *dir != "" {
		inputs = append(inputs, *dir)
	}
	if err := cli.CheckOut(args[0], cli.OutFolder, inputs, *force); err != nil {
		fmt.Fprintf(stderr, "eval752 export-static: %s\n", finding.Inert(err.Error()))
		return cli.ExitCantRun
	}
	page, err := PageFS(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "eval752 export-static: %s\n", finding.Inert(err.Error()))
		return cli.ExitCantRun
	}
	if err := ExportSite(page, args[0], bundles); err != nil {
		fmt.Fprintf(stderr, "eval752 export-static: %s\n", finding.Inert(err.Error()))
		return cli.ExitCantRun
	}
	if len(bundles) > 0 {
		fmt.Fprintf(stdout, "wrote a static site to %s that opens %d file(s) at start\n", finding.Inert(args[0]), len(bundles))
	} else {
		fmt.Fprintf(stdout, "wrote a static site to %s\n", finding.Inert(args[0]))
	}
	return cli.ExitOK
}

// Export writes the static site for the page built in dir into out. out
// must not be dir, lie inside it or contain it (the page would be written
// over while it is read), and an out that is not empty is replaced only
// with force (cli.CheckOut).
func Export(dir, out string, force bool) error {
	if err := checkFS(os.DirFS(dir), dir); err != nil {
		return err
	}
	if err := cli.CheckOut(out, cli.OutFolder, []string{dir}, force); err != nil {
		return err
	}
	return ExportFS(os.DirFS(dir), out)
}

// ExportFS writes the static site for the page in fsys into out.
func ExportFS(fsys fs.FS, out string) error { return ExportSite(fsys, out, nil) }

// ExportSite is ExportFS for a site that opens the files bundles at start:
// they are copied to out/web/bundle/ under their base names (two of one
// name are refused) and named in the page (siteHandler). The site is built
// in a temporary folder beside out and renamed into place (cli.ReplaceDir):
// a failure leaves out as it was. The caller checks out (cli.CheckOut).
func ExportSite(fsys fs.FS, out string, bundles []string) error {
	return cli.ReplaceDir(out, func(tmp string) error { return writeSite(fsys, tmp, bundles) })
}

func writeSite(fsys fs.FS, out string, bundles []string) error {
	if err := checkFS(fsys, "the page"); err != nil {
		return err
	}
	var site []siteFile
	seen := map[string]bool{}
	for _, b := range bundles {
		name := filepath.Base(b)
		if seen[name] {
			return fmt.Errorf("two --bundle files are named %s: the site names its files by their base name", name)
		}
		seen[name] = true
		data, err := os.ReadFile(b)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		site = append(site, siteFile{URL: "/web/bundle/" + url.PathEscape(name), Name: name, SHA256: hex.EncodeToString(sum[:])})
	}
	if err := os.MkdirAll(filepath.Join(out, "web"), 0o755); err != nil {
		return err
	}
	if err := app.GenerateStaticWebsite(out, siteHandler(fsys, site)); err != nil {
		return err
	}
	if len(bundles) > 0 {
		if err := os.MkdirAll(filepath.Join(out, "web", "bundle"), 0o755); err != nil {
			return err
		}
		for _, b := range bundles {
			data, err := os.ReadFile(b)
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(out, "web", "bundle", filepath.Base(b)), data, 0o644); err != nil {
				return err
			}
		}
	}
	for _, f := range WebFiles {
		if _, err := fs.Stat(fsys, f.Rel); err != nil && f.Optional {
			continue
		}
		if err := copyFile(fsys, f.Rel, filepath.Join(out, filepath.FromSlash(f.URL))); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(fsys fs.FS, src, dst string) error {
	in, err := fsys.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
