package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/cli"
	"eval752/app/finding"
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
	srv := newServer(*dir)
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
	force := fs.Bool("force", false, "replace OUT when it is a folder that is not empty")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: eval752 export-static [--dir static] [--force] OUT\n\n"+
			"Writes index.html, app.js, app-worker.js, manifest, wasm_exec.js and web/ into OUT;\n"+
			"any static file server can host OUT (it works offline after one visit).\n"+
			"OUT is never the --dir folder, inside it or around it; a folder that is not empty\n"+
			"is replaced only with --force.\n\n")
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
	if err := Export(*dir, fs.Arg(0), *force); err != nil {
		fmt.Fprintf(stderr, "eval752 export-static: %s\n", finding.Inert(err.Error()))
		return cli.ExitCantRun
	}
	fmt.Fprintf(stdout, "wrote a static site to %s\n", finding.Inert(fs.Arg(0)))
	return cli.ExitOK
}

// Export writes the static site for the page built in dir into out. out
// must not be dir, lie inside it or contain it (the page would be written
// over while it is read), and an out that is not empty is replaced only
// with force (cli.CheckOut). The site is built in a temporary folder beside
// out and renamed into place: a failure leaves out as it was.
func Export(dir, out string, force bool) error {
	if err := checkDir(dir); err != nil {
		return err
	}
	if err := cli.CheckOut(out, cli.OutFolder, []string{dir}, force); err != nil {
		return err
	}
	return cli.ReplaceDir(out, func(tmp string) error {
		if err := os.MkdirAll(filepath.Join(tmp, "web"), 0o755); err != nil {
			return err
		}
		if err := app.GenerateStaticWebsite(tmp, Handler(dir)); err != nil {
			return err
		}
		for _, f := range WebFiles {
			src := filepath.Join(dir, filepath.FromSlash(f.Rel))
			if _, err := os.Stat(src); err != nil && f.Optional {
				continue
			}
			if err := copyFile(src, filepath.Join(tmp, filepath.FromSlash(f.URL))); err != nil {
				return err
			}
		}
		return nil
	})
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
