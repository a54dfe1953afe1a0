package metrics

import (
	"os"
	"strings"
	"testing"
)

// TestDocsTable: docs/metrics.md carries the registry's table verbatim, so
// the documentation cannot drift from the code. Regenerate it with
// MarkdownTable() after changing a descriptor.
func TestDocsTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/metrics.md")
	if err != nil {
		t.Skip("docs/metrics.md not found:", err)
	}
	if !strings.Contains(string(b), MarkdownTable()) {
		t.Error("docs/metrics.md does not contain the current metrics.MarkdownTable() output")
	}
	for _, f := range Families() {
		if !strings.Contains(MarkdownTable(), "`"+f.Name) {
			t.Errorf("table lacks %s", f.Name)
		}
	}
}
