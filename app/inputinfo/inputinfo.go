// Package inputinfo holds what the reports and the page say about the files
// that were read — InputInfo — and which files of a folder are left out,
// without the loader: the page's WASM (app/ui) links this, not app/dataset
// with its JSON Schema compiler and format readers.
package inputinfo

import (
	"slices"
	"strings"

	"eval752/app/model"
)

// InputInfo describes one file that was read: a top-level input or a bundle
// entry (Path "bundle.eval752.zip!sections/a.jsonl").
type InputInfo struct {
	Path   string       `json:"path"`
	Format model.Format `json:"format"`
	SHA256 string       `json:"sha256"` // hex of the file's bytes
	Lines  int          `json:"lines"`  // lines read (JSONL / TREC / YAML); 0 for JSON files and binary assets
	Size   int64        `json:"size"`
}

// HiddenInFolder reports whether rel, the path of a file inside a folder the
// user gave ("exp/.git/config": its first element is that folder), lies in
// or is a hidden entry below it (a name starting with ".": .git, .DS_Store).
// Reading a folder leaves those out, on the page as on the command line.
func HiddenInFolder(rel string) bool {
	parts := strings.Split(rel, "/")
	return slices.ContainsFunc(parts[1:], HiddenName)
}

// HiddenName reports whether a file or folder name is hidden (starts with
// "."): a folder's such entries are left out when it is read.
func HiddenName(name string) bool { return strings.HasPrefix(name, ".") }
