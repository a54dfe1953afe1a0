package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The README's rule and metric tables and docs/metrics.md's metric
// reference are generated from the registries (`make readme`); this test
// fails when one is stale or its markers are gone.
func TestREADMETables(t *testing.T) {
	for file, tables := range map[string][]string{
		"README.md":       {"rules", "metrics"},
		"docs/metrics.md": {"metric-reference"},
	} {
		doc, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(file)))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range tables {
			if !bytes.Contains(doc, []byte("<!-- "+name+":begin -->\n")) {
				t.Errorf("%s lacks the %s table markers", file, name)
			}
		}
		want, err := UpdateDocTables(doc)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if !bytes.Equal(doc, want) {
			t.Errorf("%s: generated tables are stale: run `make readme`", file)
		}
	}
}
