package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/report"
)

// testdata/score: four mcq_single items (q1 q2 split=test, q3 q4 split=dev)
// and two runs. Run a answers q1 right, q2 wrong, q3 right and has no result
// for q4; run b answers q1, q2, q4 right and q3 wrong.
var scoreFiles = []string{"testdata/score/items.jsonl", "testdata/score/results.jsonl"}

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func decodeReport(t *testing.T, s string) report.Report {
	t.Helper()
	var r report.Report
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("output is not a JSON report: %v\n%s", err, s)
	}
	return r
}

// cellOf finds the cell of metric/stratum/run in table id.
func cellOf(r report.Report, id, metric, stratum, run string) (report.Cell, bool) {
	for _, s := range r.Sections {
		for _, tb := range s.Tables {
			if tb.ID != id {
				continue
			}
			for _, row := range tb.Rows {
				for _, c := range row {
					if c.Metric == metric && c.Stratum == stratum && c.Run == run {
						return c, true
					}
				}
			}
		}
	}
	return report.Cell{}, false
}

func TestScoreCLI(t *testing.T) {
	code, out, errs := runCLI(t, append([]string{"score", "--json"}, scoreFiles...)...)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	rep := decodeReport(t, out)
	// Inputs carry each file's sha256 (seed 000 §5): compare with the hash
	// of the file's bytes computed here.
	if len(rep.Inputs) != 2 {
		t.Fatalf("inputs = %+v", rep.Inputs)
	}
	for i, p := range scoreFiles {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if rep.Inputs[i].SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("input %s sha256 %s, want %x", p, rep.Inputs[i].SHA256, sum)
		}
	}
	// answer.correct: run a (1+0+1+0)/4 = 0.5 with n=3 (q4 missing), denominator 4;
	// run b (1+1+0+1)/4 = 0.75, n=4/4; split=dev for a: q3 1, q4 missing 0 → 0.5, n=1/2.
	for _, w := range []struct {
		id, stratum, run string
		v                float64
		n, d             int
	}{
		{"answer.all", "all", "a", 0.5, 3, 4},
		{"answer.all", "all", "b", 0.75, 4, 4},
		{"answer.split", "split=dev", "a", 0.5, 1, 2},
	} {
		c, ok := cellOf(rep, w.id, "answer.correct", w.stratum, w.run)
		if !ok || c.Value == nil || *c.Value != w.v || *c.N != w.n || *c.Denom != w.d {
			t.Errorf("%s %s %s: %+v, want %v n=%d/%d", w.id, w.stratum, w.run, c, w.v, w.n, w.d)
		}
	}
	// Byte-identical on a second run.
	_, out2, _ := runCLI(t, append([]string{"score", "--json"}, scoreFiles...)...)
	if out != out2 {
		t.Error("two runs of score --json differ")
	}
	// --seed changes the config line; flags may follow the paths.
	_, out3, _ := runCLI(t, "score", scoreFiles[0], "--seed", "7", scoreFiles[1], "--json", "--bootstrap", "200")
	r3 := decodeReport(t, out3)
	if r3.Config[0] != (report.KV{Key: "seed", Value: "7"}) || r3.Config[1] != (report.KV{Key: "bootstrap", Value: "200"}) {
		t.Errorf("config = %v", r3.Config[:2])
	}
}

func TestScoreCLIFormats(t *testing.T) {
	code, out, _ := runCLI(t, append([]string{"score"}, scoreFiles...)...)
	if code != ExitOK || !strings.Contains(out, "0.5000 [") || !strings.Contains(out, "n=3/4") || !strings.Contains(out, "sha256:") {
		t.Errorf("text output (exit %d):\n%s", code, out)
	}
	code, out, _ = runCLI(t, append([]string{"score", "--md"}, scoreFiles...)...)
	if code != ExitOK || !strings.HasPrefix(out, "# ") || !strings.Contains(out, "| metric |") {
		t.Errorf("markdown output (exit %d):\n%s", code, out)
	}
	code, out, _ = runCLI(t, append([]string{"score", "--csv"}, scoreFiles...)...)
	if code != ExitOK || !strings.HasPrefix(out, "section,table,row,column") {
		t.Errorf("csv output (exit %d):\n%s", code, out)
	}
	// --run b: no cell of run a anywhere.
	code, out, _ = runCLI(t, append([]string{"score", "--json", "--run", "b"}, scoreFiles...)...)
	if code != ExitOK || strings.Contains(out, `"run": "a"`) {
		t.Errorf("--run b still shows run a (exit %d)", code)
	}
}

func TestScoreCLIErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.jsonl")
	for _, args := range [][]string{
		{"score"},          // no path
		{"score", missing}, // unreadable path
		{"score", "--json", "--md", scoreFiles[0]}, // two formats
		{"score", "--bootstrap", "0", scoreFiles[0]},
		{"score", "--seed", "x", scoreFiles[0]},
		append([]string{"score", "--run", "zz"}, scoreFiles...),       // unknown run
		{"compare", "a", "b"},                                         // no path
		append([]string{"compare", "a", "zz"}, scoreFiles...),         // unknown run
		append([]string{"compare", "a", "a"}, scoreFiles...),          // run with itself
		append([]string{"compare", "--csv", "a", "b"}, scoreFiles...), // compare has no --csv
	} {
		if code, _, _ := runCLI(t, args...); code != ExitCantRun {
			t.Errorf("%v: exit %d, want %d", args, code, ExitCantRun)
		}
	}
	// An input with a broken line still scores, with a warning on stderr.
	dir := t.TempDir()
	bad := filepath.Join(dir, "results.jsonl")
	b, _ := os.ReadFile(scoreFiles[1])
	os.WriteFile(bad, append(b, []byte("{not json\n")...), 0o644)
	code, _, errs := runCLI(t, "score", scoreFiles[0], bad)
	if code != ExitOK || !strings.Contains(errs, "error finding") {
		t.Errorf("broken input: exit %d, stderr %q", code, errs)
	}
}

func TestCompareCLI(t *testing.T) {
	code, out, errs := runCLI(t, append([]string{"compare", "--json", "a", "b"}, scoreFiles...)...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rep := decodeReport(t, out)
	if rep.Kind != "compare" || len(rep.Inputs) != 2 {
		t.Errorf("kind %q inputs %d", rep.Kind, len(rep.Inputs))
	}
	// answer.correct, A = a (1,0,1,0), B = b (1,1,0,1): Δ = 0.75 − 0.5 = 0.25;
	// b (A right, B wrong) = q3 → 1; c (A wrong, B right) = q2, q4 → 2;
	// exact McNemar p = 2·(C(3,0)+C(3,1))/2^3 = 1.
	var row []report.Cell
	var cols []report.Column
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			if tb.ID == "compare.answer.all" {
				row, cols = tb.Rows[0], tb.Columns
			}
		}
	}
	got := map[string]report.Cell{}
	for i, c := range cols {
		got[c.Key] = row[i]
	}
	if *got["diff"].Value != 0.25 || *got["b_count"].Value != 1 || *got["c_count"].Value != 2 || *got["p"].Value != 1 || got["verdict"].Text != "~" {
		t.Errorf("compare row = %+v", got)
	}
	code, out, _ = runCLI(t, append([]string{"compare", "--md", "a", "b"}, scoreFiles...)...)
	if code != ExitOK || !strings.Contains(out, "McNemar p") {
		t.Errorf("compare --md (exit %d):\n%s", code, out)
	}
}

// Fewer than 100 resamples give no percentile interval (with one, the
// "interval" need not contain its own estimate): the commands refuse them.
func TestBootstrapMinimum(t *testing.T) {
	for _, args := range [][]string{
		append([]string{"score", "--bootstrap", "1"}, scoreFiles...),
		append([]string{"score", "--bootstrap", "99"}, scoreFiles...),
		append([]string{"compare", "--bootstrap", "10", "a", "b"}, scoreFiles...),
		append([]string{"results", "--bootstrap", "50", "-"}, scoreFiles...),
	} {
		if code, _, errs := runCLI(t, args...); code != ExitCantRun || !strings.Contains(errs, "at least 100") {
			t.Errorf("%v: exit %d, stderr %q; want %d and the minimum named", args, code, errs, ExitCantRun)
		}
	}
	if code, _, errs := runCLI(t, append([]string{"score", "--bootstrap", "100"}, scoreFiles...)...); code != ExitOK {
		t.Errorf("--bootstrap 100: exit %d, stderr %q", code, errs)
	}
}
