package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"eval752/app/audit"
	"strings"
	"testing"
)

const auditFixture = "../audit/testdata/fixture/"

func runAuditCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(context.Background(), append([]string{"audit"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func fixtureFiles() []string {
	return []string{auditFixture + "questions.jsonl", auditFixture + "clauses.jsonl", auditFixture + "documents.jsonl"}
}

func TestAuditCLIText(t *testing.T) {
	code, out, _ := runAuditCmd(fixtureFiles()...)
	// The fixture plants 4 errors (v1 in test, not verbatim, copied question, one-provenance cross): exit 1.
	if code != ExitErrors {
		t.Errorf("exit = %d, want %d", code, ExitErrors)
	}
	for _, want := range []string{
		"Set-design audit",
		"questions.jsonl:52: warning audit.refusal-similar: refuse question R04",
		"questions.jsonl:13: error audit.leak-question-copy",
		"4 error(s), 5 warning(s), 1 info",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestAuditCLIJSON(t *testing.T) {
	code, out, _ := runAuditCmd(append([]string{"--json"}, fixtureFiles()...)...)
	if code != ExitErrors {
		t.Errorf("exit = %d", code)
	}
	var v audit.Output
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Report == nil || v.Report.Kind != "audit" || v.Counts.Error != 4 || v.Counts.Warning != 5 || v.Counts.Info != 1 {
		t.Errorf("report/counts: %+v", v.Counts)
	}
}

func TestAuditCLIMarkdownAndCSV(t *testing.T) {
	_, md, _ := runAuditCmd(append(fixtureFiles(), "--md")...) // flags after paths are accepted
	if !strings.HasPrefix(md, "# Set-design audit") || !strings.Contains(md, "| 1 | R04 |") || !strings.Contains(md, "## Findings") {
		t.Errorf("markdown output:\n%.400s", md)
	}
	_, out, errOut := runAuditCmd(append([]string{"--csv"}, fixtureFiles()...)...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 10 || recs[0][0] != "section" {
		t.Errorf("csv: %v, %d records", err, len(recs))
	}
	if !strings.Contains(errOut, "audit.refusal-similar") {
		t.Error("csv mode must print the findings on stderr")
	}
}

func TestAuditCLIDraft(t *testing.T) {
	// Direct questions only: D04 (v1 in test), D12 (not verbatim) and the draft-skipped info;
	// the copied question D13 is leakage, not a draft rule.
	code, out, _ := runAuditCmd("--category", "direct", auditFixture+"questions.jsonl", auditFixture+"clauses.jsonl")
	if code != ExitErrors {
		t.Errorf("exit = %d", code)
	}
	if !strings.Contains(out, "2 error(s), 0 warning(s), 1 info") || strings.Contains(out, "Set-design audit") {
		t.Errorf("draft output:\n%s", out)
	}
	code, out, _ = runAuditCmd("--draft", "--category", "refuse", auditFixture+"questions.jsonl", auditFixture+"clauses.jsonl")
	if code != ExitOK || !strings.Contains(out, "0 error(s)") {
		t.Errorf("refuse draft: exit %d\n%s", code, out)
	}
}

func TestAuditCLICannotRun(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--draft", auditFixture + "questions.jsonl"},
		{"--category", "bogus", auditFixture + "questions.jsonl"},
		{"--json", "--md", auditFixture + "questions.jsonl"},
		{"--no-such-flag", auditFixture + "questions.jsonl"},
		{auditFixture + "does-not-exist.jsonl"},
		{auditFixture},
	} {
		if code, _, _ := runAuditCmd(args...); code != ExitCantRun {
			t.Errorf("%v: exit %d, want %d", args, code, ExitCantRun)
		}
	}
}
