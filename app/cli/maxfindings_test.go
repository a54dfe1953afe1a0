package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --max-findings: 1,205 items without an answer key give 1,205
// schema.required errors; 1000 are listed, one finding says "… and 205
// more", and the counts stay 1,205 (by hand: 1205 − 1000 = 205).
func TestMaxFindings(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 1205; i++ {
		b.WriteString(`{"id":"q` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `-` + itoa(i) + `","type":"freeform","inputs":{"text":"question ` + itoa(i) + `"}}` + "\n")
	}
	file := filepath.Join(dir, "items.jsonl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := runMain(t, "validate", "--json", file)
	var v struct {
		Findings []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			More    int    `json:"more"`
		} `json:"findings"`
		Counts struct{ Error int } `json:"counts"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	req, summary := 0, ""
	for _, f := range v.Findings {
		if f.Code == "schema.required" {
			if f.More > 0 {
				summary = f.Message
				if f.More != 205 {
					t.Errorf("summary counts %d, want 205", f.More)
				}
			} else {
				req++
			}
		}
	}
	if req != 1000 || !strings.HasPrefix(summary, "… and 205 more schema.required in items.jsonl") {
		t.Errorf("%d schema.required listed (want 1000), summary %q", req, summary)
	}
	if v.Counts.Error < 1205 {
		t.Errorf("error count %d, want at least the 1,205 schema.required", v.Counts.Error)
	}
	// --max-findings 0 lists them all
	out, _, _ = runMain(t, "validate", "--json", "--max-findings", "0", file)
	if n := strings.Count(out, `"code": "schema.required"`); n != 1205 {
		t.Errorf("--max-findings 0: %d schema.required listed, want 1205", n)
	}
}
