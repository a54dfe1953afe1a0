//go:build !js

package e2e

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCraftedNamesInert: a zip entry name holding a line break, a forged
// finding line and ESC is shown escaped in the page's findings (the row,
// its detail), as in the CLI's text output; the data-path hook keeps the
// exact name. The files are served by `eval752 serve` (per-representation
// ETags, timeouts), so the page loading at all covers that server too.
func TestCraftedNamesInert(t *testing.T) {
	name := "sections/a.jsonl\n./forged.jsonl:1: error fake.rule: forged\x1b[2J"
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create(name)
	w.Write([]byte("{bad\n"))
	zw.Close()
	file := filepath.Join(t.TempDir(), "crafted.zip")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.open()
	b.upload(file)
	b.waitReady(60 * time.Second)
	b.tab("findings")
	rows := eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.textContent)`)
	paths := eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.dataset.path)`)
	exact, escaped := false, false
	for i, r := range rows {
		if strings.ContainsAny(r, "\x1b\n\r") {
			t.Errorf("finding row %d shows a raw control character: %q", i, r)
		}
		escaped = escaped || strings.Contains(r, `forged\x1b[2J`)
		exact = exact || paths[i] == "crafted.zip!"+name
	}
	if !escaped || !exact {
		t.Errorf("rows %q (escaped name shown: %v), paths %q (exact name kept: %v)", rows, escaped, paths, exact)
	}
	b.click(`[data-test=finding][data-code="format.unknown"] [data-test=finding-open]`)
	b.waitJS(`!!document.querySelector('[data-test=finding-detail]')`, 10*time.Second)
	detail := eval[string](b, `document.querySelector('[data-test=finding-detail]').textContent`)
	if strings.ContainsAny(detail, "\x1b\r") || !strings.Contains(detail, `\x1b`) {
		t.Errorf("finding detail %q: want the name escaped, no raw control character", detail)
	}
	b.assertPrivate()
}
