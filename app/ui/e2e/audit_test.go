//go:build !js

package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestAuditNotChecked: the seed-002 audit fixture's questions alone (no
// clause index, no documents) leave the corpus and clause rules unchecked,
// and the audit says "not checked" for them instead of a bare 0, and above
// the leakage section; with the clause index and the documents loaded those
// notes are gone and the refusal similarity is drawn as a box plot with its
// threshold line.
func TestAuditNotChecked(t *testing.T) {
	fix := filepath.Join(env.root, "app", "audit", "testdata", "fixture")
	dir := t.TempDir()
	for _, f := range []string{"questions.jsonl", "clauses.jsonl", "documents.jsonl"} {
		if err := copyFile(filepath.Join(fix, f), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "questions.jsonl")); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.open()
	b.upload(filepath.Join(dir, "questions.jsonl"))
	b.waitReady(60 * time.Second)
	b.tab("audit")
	b.waitJS(`!!document.querySelector('[data-report=audit]')`, 20*time.Second)
	for _, code := range []string{"audit.leak-doc-exact", "audit.refusal-similar", "v2.provenance-missing"} {
		if !eval[bool](b, `!!document.querySelector('[data-report=audit] [data-test=not-checked][data-code="`+code+`"]')`) {
			t.Errorf("questions alone: %s is not marked not checked", code)
		}
	}
	if !eval[bool](b, `!!document.querySelector('[data-report=audit] [data-section=leakage] p[data-test=not-checked]')`) {
		t.Error("questions alone: the leakage section does not say it was not checked")
	}

	b.upload(filepath.Join(dir, "questions.jsonl"), filepath.Join(dir, "clauses.jsonl"), filepath.Join(dir, "documents.jsonl"))
	b.waitReady(60 * time.Second)
	b.tab("audit")
	b.waitJS(`!!document.querySelector('[data-report=audit] [data-test=refusal-plot]')`, 20*time.Second)
	for _, code := range []string{"audit.refusal-similar", "v2.provenance-missing", "audit.leak-doc-exact"} {
		if eval[bool](b, `!!document.querySelector('[data-report=audit] [data-test=not-checked][data-code="`+code+`"]')`) {
			t.Errorf("with clauses and documents: %s still marked not checked", code)
		}
	}
	if !eval[bool](b, `!!document.querySelector('[data-test=refusal-plot] [data-test=refusal-threshold]')`) {
		t.Error("the refusal box plot has no threshold line")
	}
	if n := eval[int](b, `document.querySelectorAll('[data-test=refusal-plot] .median').length`); n != 2 {
		t.Errorf("the refusal box plot draws %d groups, want answerable and refuse", n)
	}
}
