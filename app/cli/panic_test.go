package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/dataset"
)

// The panic net of every command that reads inputs: a panic injected while
// reading a bundle's entry (dataset.TestHookRead) is one internal.error
// finding naming the entry, saying it is a bug to report, exit 2 — never a
// Go stack. validate prints it as its output (text or JSON), the others on
// stderr.
func TestPanicNetEveryCommand(t *testing.T) {
	dir := t.TempDir()
	writeDemoBundle(t, dir, "demo.eval752.zip", false)
	bundle := filepath.Join(dir, "demo.eval752.zip")
	old := dataset.TestHookRead
	dataset.TestHookRead = func(name string) {
		if strings.HasSuffix(name, "sections/general.jsonl") {
			panic("injected for the test")
		}
	}
	t.Cleanup(func() { dataset.TestHookRead = old })
	for _, args := range [][]string{
		{"validate", bundle},
		{"validate", "--json", bundle},
		{"score", bundle},
		{"compare", "bm25", "hybrid-rerank", bundle},
		{"audit", bundle},
		{"results", filepath.Join(dir, "out.zip"), bundle},
	} {
		code, stdout, stderr := runCLI(t, args...)
		all := stdout + stderr
		if code != ExitCantRun {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, all)
		}
		if n := strings.Count(all, "internal.error"); n != 1 {
			t.Errorf("%v: %d internal.error findings, want 1\n%s", args, n, all)
		}
		if !strings.Contains(all, "demo.eval752.zip!sections/general.jsonl") || !strings.Contains(all, "bug") {
			t.Errorf("%v: the finding does not name the entry or say it is a bug:\n%s", args, all)
		}
		if strings.Contains(all, "goroutine ") {
			t.Errorf("%v: a Go stack reached the user:\n%s", args, all)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.zip")); err == nil {
		t.Errorf("results wrote its bundle after the panic")
	}
}
