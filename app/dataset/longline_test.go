package dataset

import (
	"strings"
	"testing"
)

// TestFirstLineOverOldSniffWindow: issue 9 item 7: a first JSONL line over the old 16 MiB sniff window (but
// under the 64 MiB line cap) made the whole file format.unknown and hid the
// findings of every later line. The line cap is now the only limit.
func TestFirstLineOverOldSniffWindow(t *testing.T) {
	big := strings.Repeat("x", 17<<20)
	for _, first := range []string{
		`{"run":"r","item_id":"q1","output":"` + big + `"}`,
		// the long value before the keys that decide the format
		`{"output":"` + big + `","run":"r","item_id":"q1"}`,
	} {
		b := []byte(first + "\n" + `{"run":"r","item_id":"q2","latency_ms":-5}` + "\n")
		ds := load(t, memInput("results.jsonl", b))
		var codes []string
		for _, f := range ds.Findings {
			codes = append(codes, f.Code)
			if f.Code == "format.unknown" {
				t.Errorf("format.unknown: %v", f)
			}
		}
		found := false
		for _, f := range ds.Findings {
			if f.Code == "schema.range" && f.Line == 2 && f.Pointer == "/latency_ms" {
				found = true
			}
		}
		if !found || len(ds.Results) != 2 {
			t.Errorf("line 2's schema.range not found (findings %v, %d results)", codes, len(ds.Results))
		}
	}
	// over the cap: the cap's own finding, and line 2 still read
	lim := DefaultLimits()
	lim.MaxLineBytes = 1 << 20
	b := []byte(`{"run":"r","item_id":"q1","output":"` + strings.Repeat("x", 2<<20) + `"}` + "\n" + `{"run":"r","item_id":"q2","latency_ms":-5}` + "\n")
	ds, err := Load(t.Context(), []Input{memInput("results.jsonl", b)}, Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, f := range ds.Findings {
		codes = append(codes, f.Code)
	}
	if got := strings.Join(codes, " "); !strings.Contains(got, "jsonl.line-too-long") || !strings.Contains(got, "schema.range") {
		t.Errorf("over the cap: %s", got)
	}
}
