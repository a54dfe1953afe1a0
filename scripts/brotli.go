//go:build ignore

// brotli writes FILE.br beside each FILE given, compressed at quality 11
// (what `brotli -q 11` writes), for the server to send to browsers that
// accept br (app/ui/server). `make wasm` runs it on the two WASM files:
//
//	go run scripts/brotli.go static/web/app.wasm static/web/worker.wasm
//
// Pure Go (github.com/andybalholm/brotli), so a fresh machine needs no
// brotli tool.
package main

import (
	"fmt"
	"os"

	"github.com/andybalholm/brotli"
)

func main() {
	for _, name := range os.Args[1:] {
		if err := compress(name); err != nil {
			fmt.Fprintln(os.Stderr, "brotli:", err)
			os.Exit(1)
		}
	}
}

func compress(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	tmp := name + ".br.tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := brotli.NewWriterOptions(f, brotli.WriterOptions{Quality: 11, LGWin: 24})
	if _, err := w.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, name+".br")
}
