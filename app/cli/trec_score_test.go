package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 9 item 6: a NaN score is a located error in validate, score and
// trec — never exit 0 in silence — and score's figures do not depend on the
// order of the lines (the bad lines are left out, the rest ranked by score,
// then docno).
func TestNonFiniteScoreEveryCommand(t *testing.T) {
	dir := t.TempDir()
	qrels := filepath.Join(dir, "qrels.txt")
	run := filepath.Join(dir, "run.txt")
	shuffled := filepath.Join(dir, "run2.txt")
	lines := []string{"q1 Q0 d1 1 NaN t", "q1 Q0 d2 2 0.5 t", "q1 Q0 d3 3 NaN t", "q1 Q0 d4 4 0.3 t", "q1 Q0 d5 5 NaN t"}
	os.WriteFile(qrels, []byte("q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 1\n"), 0o644)
	os.WriteFile(run, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	os.WriteFile(shuffled, []byte(strings.Join([]string{lines[4], lines[1], lines[3], lines[0], lines[2]}, "\n")+"\n"), 0o644)
	located := run + `:1: error trec.syntax: run line 1: score "NaN" is not a finite number`

	code, out, _ := runCLI(t, "validate", qrels, run)
	if code != ExitErrors || !strings.Contains(out, located) || strings.Count(out, "trec.syntax: run line") != 3 {
		t.Errorf("validate: exit %d\n%s", code, out)
	}
	code, out1, errs := runCLI(t, "score", "--json", qrels, run)
	if code != ExitOK || !strings.Contains(errs, located) {
		t.Errorf("score: exit %d, stderr:\n%s", code, errs)
	}
	_, out2, _ := runCLI(t, "score", "--json", qrels, shuffled)
	strip := func(s string) string { // the inputs' names and hashes differ, nothing else may
		s = strings.ReplaceAll(s, "run2.txt", "run.txt")
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "sha256") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if !strings.Contains(out1, `"map`) || strip(out1) != strip(out2) {
		t.Errorf("score depends on the order of the lines")
	}
	code, _, errs = runCLI(t, "trec", qrels, run)
	if code != ExitErrors || !strings.Contains(errs, run+`:1: score "NaN" is not a finite number`) {
		t.Errorf("trec: exit %d, stderr:\n%s", code, errs)
	}
}

// A score with a Go digit separator ("1_5") is not a number: strconv.ParseFloat
// reads it whole as 15 while trec_eval's atof stops at the "_" and reads 1,
// so before this `score` ranked d1 first (mrr 0.5) and `trec` ranked d2 first
// (map 1.0) on the same lines, and validate said 0 errors. Both readers now
// refuse it, at its line.
func TestUnderscoreScoreRefused(t *testing.T) {
	dir := t.TempDir()
	qrels := filepath.Join(dir, "qrels.txt")
	run := filepath.Join(dir, "run.txt")
	os.WriteFile(qrels, []byte("q1 0 d1 0\nq1 0 d2 1\n"), 0o644)
	os.WriteFile(run, []byte("q1 Q0 d1 1 1_5 t\nq1 Q0 d2 2 1.2 t\n"), 0o644)
	code, out, _ := runCLI(t, "validate", qrels, run)
	if code != ExitErrors || !strings.Contains(out, run+`:1: error trec.syntax: run line 1: score "1_5" is not a number`) {
		t.Errorf("validate: exit %d\n%s", code, out)
	}
	code, _, errs := runCLI(t, "trec", qrels, run)
	if code != ExitErrors || !strings.Contains(errs, run+`:1: score "1_5" is not a number (trec_eval's atof would read it as 1)`) {
		t.Errorf("trec: exit %d, stderr:\n%s", code, errs)
	}
}
