package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --max-findings caps per rule code AND file: with --max-findings 2,
// a.jsonl has 5 schema.required (items 1–5 lack "answer") and 4 id.duplicate
// (items 6–10 share id "dup": the later 4 are duplicates), b.jsonl 4
// schema.required. By hand: a.jsonl lists 2 + "… and 3 more
// schema.required in a.jsonl" and 2 + "… and 2 more id.duplicate in
// a.jsonl"; b.jsonl lists 2 + "… and 2 more schema.required in b.jsonl";
// the error count stays 5 + 4 + 4 = 13.
func TestMaxFindingsPerRuleAndFile(t *testing.T) {
	dir := t.TempDir()
	var a, b strings.Builder
	for i := 1; i <= 5; i++ {
		a.WriteString(`{"id":"a` + itoa(i) + `","type":"freeform","inputs":{"text":"question a` + itoa(i) + `"}}` + "\n")
	}
	for i := 6; i <= 10; i++ {
		a.WriteString(`{"id":"dup","type":"freeform","inputs":{"text":"question a` + itoa(i) + `"},"answer":"x"}` + "\n")
	}
	for i := 1; i <= 4; i++ {
		b.WriteString(`{"id":"b` + itoa(i) + `","type":"freeform","inputs":{"text":"question b` + itoa(i) + `"}}` + "\n")
	}
	fa, fb := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	if err := os.WriteFile(fa, []byte(a.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fb, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := runMain(t, "validate", "--json", "--max-findings", "2", fa, fb)
	var v struct {
		Findings []struct {
			Code    string `json:"code"`
			Path    string `json:"path"`
			Message string `json:"message"`
			More    int    `json:"more"`
		} `json:"findings"`
		Counts struct{ Error int } `json:"counts"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	listed := map[string]int{}
	more := map[string]string{}
	for _, f := range v.Findings {
		k := filepath.Base(f.Path) + " " + f.Code
		if f.More > 0 {
			more[k] = f.Message
		} else {
			listed[k]++
		}
	}
	for k, want := range map[string]string{
		"a.jsonl schema.required": "… and 3 more schema.required in a.jsonl",
		"a.jsonl id.duplicate":    "… and 2 more id.duplicate in a.jsonl",
		"b.jsonl schema.required": "… and 2 more schema.required in b.jsonl",
	} {
		if listed[k] != 2 {
			t.Errorf("%s: %d listed, want 2", k, listed[k])
		}
		if !strings.HasPrefix(more[k], want) {
			t.Errorf("%s: summary %q, want %q…", k, more[k], want)
		}
	}
	if v.Counts.Error != 13 {
		t.Errorf("error count %d, want 13 (5 + 4 + 4)\n%s", v.Counts.Error, out)
	}
}
