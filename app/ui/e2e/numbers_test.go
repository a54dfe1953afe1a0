//go:build !js

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHugeExponentNumber: issue 9's crash. A results line whose latency_ms
// is 1e-9999999 made the schema library panic (the page showed a raw Go
// stack and no findings). Now the page lists the same located findings as
// `eval752 validate` — number.range at line 1 — shows no stack, and stays
// usable: the demo loads next, with the CLI's counts.
func TestHugeExponentNumber(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(file, []byte(`{"run":"r","item_id":"q","latency_ms":1e-9999999}`+"\n"), 0o644)
	v := cliValidate(t, file)
	var want []string
	// the page lists findings severity first (errors, warnings, infos)
	for _, f := range v.severityFirst().Findings {
		want = append(want, fmt.Sprintf("%d %s", f.Line, f.Code))
	}
	if !slices.Contains(want, "1 number.range") {
		t.Fatalf("the CLI gives %q, not number.range at line 1; the test would prove nothing", want)
	}
	b := newBrowser(t)
	b.open()
	b.upload(file)
	b.waitReady(60 * time.Second)
	b.tab("findings")
	rows := eval[[]string](b, `[...document.querySelectorAll('[data-test=finding]')].map(e => e.dataset.line + " " + e.dataset.code)`)
	if !slices.Equal(rows, want) {
		t.Errorf("finding rows %q, CLI %q", rows, want)
	}
	if text := eval[string](b, `document.body.innerText`); strings.Contains(text, "goroutine") || strings.Contains(text, "panic") {
		t.Errorf("the page shows a Go stack")
	}
	// a second load works
	b.click(`[data-test=demo-button]`)
	b.waitReady(60 * time.Second)
	d := cliValidate(t, env.demo)
	if e, w := b.counts(); e != d.Counts.Error || w != d.Counts.Warning {
		t.Errorf("demo after the number: counts %d/%d, CLI %d/%d", e, w, d.Counts.Error, d.Counts.Warning)
	}
}
