package static

import (
	"embed"
	"io/fs"
)

// Page is the built page, laid out as this folder is after `make wasm`: the
// hand-written assets at the top and web/ (app.wasm, worker.wasm,
// wasm_exec.js). `make build` builds the WASM files first, so bin/eval752
// carries the whole page and `eval752 serve` needs nothing beside it. On a
// fresh clone web/ holds only its README (a directory embed needs one file):
// PageBuilt then reports false and serve asks for `make build` or --dir.
// Only the server references Page, so the core's binaries (and the worker
// WASM, which imports this package for Schemas) do not carry it.
//
//go:embed app.css hooks.js worker.js icon.svg icon-192.png icon-512.png web
var Page embed.FS

// PageBuilt reports whether Page holds the built WASM files.
func PageBuilt() bool {
	for _, f := range []string{"web/app.wasm", "web/worker.wasm", "web/wasm_exec.js"} {
		if _, err := fs.Stat(Page, f); err != nil {
			return false
		}
	}
	return true
}
