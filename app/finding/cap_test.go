package finding

import (
	"strings"
	"testing"
)

// Cap keeps the first n of each (code, file), says how many more there
// were, and leaves Counts and PerCode as they were.
func TestCap(t *testing.T) {
	var l List
	for i := 1; i <= 1205; i++ {
		l = append(l, Finding{Severity: Error, Code: "schema.required", Path: "set/items.jsonl", Line: i, Message: "x"})
	}
	for i := 1; i <= 3; i++ {
		l = append(l, Finding{Severity: Warning, Code: "id.duplicate", Path: "set/items.jsonl", Line: i, Message: "y"})
	}
	before, perBefore := l.Counts(), l.PerCode()
	got := append(List{}, l...).Normalize().Cap(1000)
	// 1000 kept + 1 summary of 205 + 3 warnings under the cap
	if len(got) != 1004 {
		t.Fatalf("%d findings after Cap, want 1004", len(got))
	}
	var sum *Finding
	for i := range got {
		if got[i].More > 0 {
			sum = &got[i]
		}
	}
	if sum == nil || sum.More != 205 || !strings.HasPrefix(sum.Message, "… and 205 more schema.required in items.jsonl") || sum.Severity != Error {
		t.Fatalf("summary %+v", sum)
	}
	if c := got.Counts(); c != before {
		t.Errorf("counts %+v after Cap, %+v before", c, before)
	}
	if pc := got.PerCode(); len(pc) != len(perBefore) || pc[0] != perBefore[0] || pc[1] != perBefore[1] {
		t.Errorf("per code %+v after Cap, %+v before", pc, perBefore)
	}
	// a capped list capped again (another stage's findings added) folds
	// its summary: still one, with the new findings counted
	more := append(got, Finding{Severity: Error, Code: "schema.required", Path: "set/items.jsonl", Line: 9999, Message: "z"})
	again := more.Normalize().Cap(1000)
	n := 0
	for _, f := range again {
		if f.More > 0 {
			n++
			if f.More != 206 {
				t.Errorf("folded summary counts %d, want 206", f.More)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d summaries after a second Cap, want 1", n)
	}
	if thousands(48211) != "48,211" || thousands(1000000) != "1,000,000" || thousands(7) != "7" {
		t.Error("thousands")
	}
}
