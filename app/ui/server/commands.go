package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/cli"
)

func init() {
	cli.Register(cli.Command{Name: "serve", Summary: "host the page on a loopback address (no upload endpoint)", Run: runServe})
	cli.Register(cli.Command{Name: "export-static", Summary: "write the page as a static site any file server can host", Run: runExport})
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8752", "listen address (host:port; port 0 picks a free one)")
	dir := fs.String("dir", "static", "the static folder holding web/app.wasm, web/worker.wasm and the page's assets")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 serve [--addr 127.0.0.1:8752] [--dir static]\n\n"+
			"Serves the page. The server only answers GET/HEAD for the app's own files:\n"+
			"the files you open in the page are read by your browser and never sent here.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cli.ExitOK
		}
		return cli.ExitCantRun
	}
	if err := checkDir(*dir); err != nil {
		fmt.Fprintf(stderr, "eval752 serve: %v\n", err)
		return cli.ExitCantRun
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "eval752 serve: %v\n", err)
		return cli.ExitCantRun
	}
	srv := &http.Server{
		Handler:           Secure(Handler(*dir)),
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
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

func checkDir(dir string) error {
	for _, f := range WebFiles {
		if f.Optional {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Rel))); err != nil {
			return fmt.Errorf("%s is missing (run `make wasm` first, or pass --dir): %v", filepath.Join(dir, f.Rel), err)
		}
	}
	return nil
}

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export-static", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "static", "the static folder holding the built page")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 export-static [--dir static] OUT\n\n"+
			"Writes index.html, app.js, app-worker.js, manifest, wasm_exec.js and web/ into OUT;\n"+
			"any static file server can host OUT (it works offline after one visit).\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cli.ExitOK
		}
		return cli.ExitCantRun
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return cli.ExitCantRun
	}
	if err := Export(*dir, fs.Arg(0)); err != nil {
		fmt.Fprintf(stderr, "eval752 export-static: %v\n", err)
		return cli.ExitCantRun
	}
	fmt.Fprintf(stdout, "wrote a static site to %s\n", fs.Arg(0))
	return cli.ExitOK
}

// Export writes the static site for the page built in dir into out.
func Export(dir, out string) error {
	if err := checkDir(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "web"), 0o755); err != nil {
		return err
	}
	if err := app.GenerateStaticWebsite(out, Handler(dir)); err != nil {
		return err
	}
	for _, f := range WebFiles {
		src := filepath.Join(dir, filepath.FromSlash(f.Rel))
		if _, err := os.Stat(src); err != nil && f.Optional {
			continue
		}
		if err := copyFile(src, filepath.Join(out, filepath.FromSlash(f.URL))); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
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
