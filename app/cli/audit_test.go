package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"eval752/app/audit"
	"slices"
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
	empty := t.TempDir()
	for _, args := range [][]string{
		{},
		{"--draft", auditFixture + "questions.jsonl"},
		{"--category", "bogus", auditFixture + "questions.jsonl"},
		{"--json", "--md", auditFixture + "questions.jsonl"},
		{"--no-such-flag", auditFixture + "questions.jsonl"},
		{auditFixture + "does-not-exist.jsonl"},
		{empty}, // a folder with no file
	} {
		if code, _, _ := runAuditCmd(args...); code != ExitCantRun {
			t.Errorf("%v: exit %d, want %d", args, code, ExitCantRun)
		}
	}
}

// The fixture's folder audits as its three files do, plus the note that its
// README.md is no format eval752 reads.
func TestAuditFolder(t *testing.T) {
	code, folder, _ := runAuditCmd("--md", auditFixture)
	if code != ExitErrors {
		t.Fatalf("audit of the fixture folder: exit %d, want %d (planted errors)", code, ExitErrors)
	}
	_, files, _ := runAuditCmd(append([]string{"--md"}, auditFixture+"clauses.jsonl", auditFixture+"documents.jsonl", auditFixture+"questions.jsonl")...)
	var extra []string
	want := strings.Split(files, "\n")
	for _, l := range strings.Split(folder, "\n") {
		if i := slices.Index(want, l); i >= 0 {
			want = slices.Delete(want, i, i+1)
		} else {
			extra = append(extra, l)
		}
	}
	// the counts line differs by the one info; everything else is equal
	if len(extra) != 3 || !strings.Contains(extra[0], "README.md") || !strings.Contains(extra[1], "format.skipped") || !strings.Contains(extra[2], "2 info") || len(want) != 1 {
		t.Errorf("folder audit vs files audit: extra lines %q, missing lines %q", extra, want)
	}
}
