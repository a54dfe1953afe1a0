package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/audit"
)

// `eval752 audit` prints the review queue in every output form and reads a
// verdict file given as an input (detected by content, any file name).
func TestAuditCLIReviewQueueAndVerdicts(t *testing.T) {
	vf := filepath.Join(t.TempDir(), "review-2026-12-01.jsonl")
	lines := `{"qid": "R04", "verdict": "answerable", "reviewer": "li", "at": "2026-12-01T10:00:00Z", "passage": "pat-inj-02", "note": "实施例一 gives every parameter"}
{"qid": "R16", "verdict": "refuse-ok", "reviewer": "li", "at": "2026-12-01T10:02:00Z"}
`
	if err := os.WriteFile(vf, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runAuditCmd(append([]string{"--json"}, append(fixtureFiles(), vf)...)...)
	if code != ExitErrors {
		t.Errorf("exit = %d, want %d", code, ExitErrors)
	}
	var v audit.Output
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, f := range v.Findings {
		per[f.Code]++
	}
	// without verdicts: 4 errors, 5 warnings (TestAuditCLIText); R04's
	// refusal-similar warning becomes a refusal-answerable error
	if per["audit.refusal-similar"] != 0 || per["audit.refusal-answerable"] != 1 || per["audit.verdict-qid"] != 0 || v.Counts.Error != 5 || v.Counts.Warning != 4 {
		t.Errorf("findings %v, counts %+v", per, v.Counts)
	}
	review := map[string]string{}
	for _, s := range v.Report.Sections {
		for _, tb := range s.Tables {
			if tb.ID == "refusal-queue" {
				for _, r := range tb.Rows {
					review[r[1].Text] = r[len(r)-1].Text
				}
			}
		}
	}
	if len(review) != 16 {
		t.Fatalf("queue has %d rows, want the fixture's 16 refuse questions", len(review))
	}
	if got := review["R04"]; got != "reviewed: answerable (li, 2026-12-01T10:00:00Z) — 实施例一 gives every parameter" {
		t.Errorf("R04: %q", got)
	}
	if got := review["R16"]; got != "reviewed: refuse-ok (li, 2026-12-01T10:02:00Z)" {
		t.Errorf("R16: %q", got)
	}

	_, md, _ := runAuditCmd(append([]string{"--md"}, append(fixtureFiles(), vf)...)...)
	_, csv, _ := runAuditCmd(append([]string{"--csv"}, fixtureFiles()...)...)
	_, text, _ := runAuditCmd(fixtureFiles()...)
	for name, s := range map[string]string{"markdown": md, "csv": csv, "text": text} {
		if !strings.Contains(s, "Review queue") && !strings.Contains(s, "refusal-queue") {
			t.Errorf("%s output has no review queue", name)
		}
	}
	if !strings.Contains(text, "a reviewer sees all 1 flagged question(s) after 1 of 16 row(s) (6.2 % of the queue)") {
		t.Errorf("text output lacks the share of the queue to read")
	}
}
