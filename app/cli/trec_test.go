package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trecRefDir is the trec_eval v10.0 reference vectors kept in package
// trec's testdata (app/trec/testdata/reference, provenance in its README.md).
func trecRefDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "trec", "testdata", "reference")
	if _, err := os.Stat(filepath.Join(dir, "SEMANTICS.md")); err != nil {
		t.Fatalf("trec_eval reference vectors not found at %s: %v", dir, err)
	}
	return dir
}

func runTrecArgs(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Main(context.Background(), append([]string{"trec"}, args...), &o, &e)
	return code, o.String(), e.String()
}

// TestTrecCLIMatchesTrecEval: stdout must equal trec_eval's own output
// byte for byte (expected_all*.txt, minus the rbp/rbp_resid lines, which
// trec_eval computes from uninitialised memory and we do not implement).
func TestTrecCLIMatchesTrecEval(t *testing.T) {
	ref := trecRefDir(t)
	for _, c := range []struct {
		dir, want string
		args      []string
	}{
		{"a_binary", "expected_all.txt", []string{"-q", "-m", "all_trec"}},
		{"a_binary", "expected_all_c.txt", []string{"-c", "-q", "-m", "all_trec"}},
		{"a_binary", "expected_all_M5.txt", []string{"-M5", "-q", "-m", "all_trec"}}, // attached form, as getopt allows
		{"b_graded", "expected_all_l2.txt", []string{"-l", "2", "-q", "-m", "all_trec"}},
		{"b_graded", "expected_all_ndcg_gains_int.txt", []string{"-q", "-m", "ndcg.0=0,1=1,2=3,3=7"}},
		{"h_short_runs", "expected_all_c.txt", []string{"-q", "-c", "-m", "all_trec"}},
		{"k_complete_flags", "expected_all_c_l2.txt", []string{"-c", "-l", "2", "-q", "-m", "all_trec"}},
		{"k_complete_flags", "expected_all_c_l0.txt", []string{"-c", "-l", "0", "-q", "-m", "all_trec"}},
		{"k_complete_flags", "expected_all_c_param.txt", []string{"-c", "-q", "-m", "relstring.10", "-m", "utility.2,-1,0,0",
			"-m", "num_rel", "-m", "num_rel_ret", "-m", "P.3,7"}},
	} {
		dir := filepath.Join(ref, c.dir)
		args := append(append([]string{}, c.args...), filepath.Join(dir, "qrels"), filepath.Join(dir, "run"))
		code, out, errOut := runTrecArgs(args...)
		if code != ExitOK {
			t.Fatalf("%s %v: exit %d: %s", c.dir, c.args, code, errOut)
		}
		wantBytes, err := os.ReadFile(filepath.Join(dir, c.want))
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for _, l := range strings.SplitAfter(string(wantBytes), "\n") {
			if !strings.HasPrefix(l, "rbp ") && !strings.HasPrefix(l, "rbp_resid ") {
				want.WriteString(l)
			}
		}
		if out != want.String() {
			t.Errorf("%s %v: output differs from trec_eval's %s", c.dir, c.args, c.want)
		}
	}
}

// TestTrecCLIDefaultMeasures: with no -m the "official" group is printed,
// summary only: runid, num_q, ... P_1000 (trec_eval prints the same lines).
func TestTrecCLIDefaultMeasures(t *testing.T) {
	dir := filepath.Join(trecRefDir(t), "a_binary")
	code, out, _ := runTrecArgs(filepath.Join(dir, "qrels"), filepath.Join(dir, "run"))
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank = 10,
	// iprec_at_recall 11 cutoffs, P 9 cutoffs: 30 lines.
	if len(lines) != 30 || !strings.HasPrefix(lines[0], "runid                 \tall\trunA") {
		t.Errorf("default output has %d lines, first %q", len(lines), lines[0])
	}
}

func TestTrecCLIErrors(t *testing.T) {
	ref := trecRefDir(t)
	d := filepath.Join(ref, "d_duplicate_docno")
	// trec_eval exits 4 with "duplicate docs x07"; we exit 1 naming the
	// file and line of the second x07 of query d2 (run line 25) and print
	// nothing on stdout.
	code, out, errOut := runTrecArgs("-q", "-m", "all_trec", filepath.Join(d, "qrels"), filepath.Join(d, "run"))
	if code != ExitErrors || out != "" || !strings.Contains(errOut, "run:25:") || !strings.Contains(errOut, "x07") {
		t.Errorf("duplicate docno: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	a := filepath.Join(ref, "a_binary")
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{filepath.Join(a, "qrels"), filepath.Join(a, "no-such-run")}, ExitCantRun},
		{[]string{"-m", "no_such_measure", filepath.Join(a, "qrels"), filepath.Join(a, "run")}, ExitCantRun},
		{[]string{"-M", "-3", filepath.Join(a, "qrels"), filepath.Join(a, "run")}, ExitCantRun},
		{[]string{filepath.Join(a, "qrels")}, ExitCantRun},
		{[]string{"-h"}, ExitOK},
	} {
		if code, _, errOut := runTrecArgs(c.args...); code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, errOut)
		}
	}
	// A qrels query missing from the run without -c: trec_eval v10 exits 4;
	// we exit 1 naming the query.
	tmp := t.TempDir()
	q := filepath.Join(tmp, "qrels")
	r := filepath.Join(tmp, "run")
	os.WriteFile(q, []byte("1 0 a 1\n2 0 b 1\n"), 0o644)
	os.WriteFile(r, []byte("1 Q0 a 1 1.0 t\n"), 0o644)
	if code, _, errOut := runTrecArgs(q, r); code != ExitErrors || !strings.Contains(errOut, `"2"`) {
		t.Errorf("missing query: exit %d, stderr %q", code, errOut)
	}
	if code, out, _ := runTrecArgs("-c", "-m", "num_q", q, r); code != ExitOK || !strings.Contains(out, "num_q                 \tall\t2") {
		t.Errorf("-c: exit %d, out %q", code, out)
	}
}

// TestTrecCLIMaxDocsZero: trec_eval's -M 0 keeps no doc of any ranking.
// On k_complete_flags it prints q1's lines with num_ret 0 and every
// measure 0 (expected_all_M0.txt), then aborts on q10, which is judged but
// not in the run (rc 4, expected_stderr_M0.txt). We exit 1 naming q10 and,
// with -c added, print exactly trec_eval's lines for q1 first.
func TestTrecCLIMaxDocsZero(t *testing.T) {
	dir := filepath.Join(trecRefDir(t), "k_complete_flags")
	qrels, run := filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
	if code, out, errOut := runTrecArgs("-M", "0", "-q", "-m", "all_trec", qrels, run); code != ExitErrors || out != "" || !strings.Contains(errOut, `"q10"`) {
		t.Errorf("-M 0 without -c: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut := runTrecArgs("-M", "0", "-c", "-q", "-m", "all_trec", qrels, run)
	if code != ExitOK {
		t.Fatalf("-M 0 -c: exit %d: %s", code, errOut)
	}
	wantBytes, err := os.ReadFile(filepath.Join(dir, "expected_all_M0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, l := range strings.SplitAfter(string(wantBytes), "\n") {
		if !strings.HasPrefix(l, "rbp ") && !strings.HasPrefix(l, "rbp_resid ") {
			want.WriteString(l)
		}
	}
	if !strings.HasPrefix(out, want.String()) {
		t.Errorf("-M 0 -c: q1's lines differ from trec_eval's expected_all_M0.txt")
	}
}
