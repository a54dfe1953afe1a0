package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The README's rule and metric tables are generated from the registries
// (`make readme`); this test fails when they are stale.
func TestREADMETables(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := UpdateDocTables(doc)
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	if !bytes.Equal(doc, want) {
		t.Fatal("README.md rule/metric tables are stale: run `make readme`")
	}
}
