package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/engine"
)

var gateFiles = []string{"testdata/gate/items.jsonl", "testdata/gate/results.jsonl"}

// score --fail-on-target: run a answers n1 n3 n4 right and n2 wrong, so
// answer.numeric (seed 003 §7 target ≥ 0.95) is 3/4 = 0.75 on all units
// (FAIL), 1/2 = 0.5 on split=test (FAIL) and 2/2 = 1 on split=dev (pass).
func TestScoreFailOnTarget(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
		msg  string
	}{
		{nil, ExitOK, ""},
		{[]string{"--fail-on-target"}, ExitErrors, "run a: answer.numeric (all) = 0.7500, target ≥ 0.95"},
		{[]string{"--fail-on-target", "--split", "test"}, ExitErrors, "run a: answer.numeric (all) = 0.5000, target ≥ 0.95"},
		{[]string{"--fail-on-target", "--split", "dev"}, ExitOK, ""},
		{[]string{"--split", "train"}, ExitCantRun, "no unit of that split (splits: test, dev)"},
	} {
		out, stderr, code := runMain(t, append(append([]string{"score"}, tc.args...), gateFiles...)...)
		if code != tc.want {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.want, stderr)
		}
		if tc.msg != "" && !strings.Contains(stderr, tc.msg) {
			t.Errorf("%v: stderr %q lacks %q", tc.args, stderr, tc.msg)
		}
		if tc.want != ExitCantRun && !strings.Contains(out, "Headline figures") {
			t.Errorf("%v: no report printed", tc.args)
		}
	}
	// --split scores only that split's units: the report's n is 2, not 4
	out, _, _ := runMain(t, append([]string{"score", "--json", "--split", "dev"}, gateFiles...)...)
	if !strings.Contains(out, `"key": "split",`) || strings.Count(out, `"id": "n`) != 2 {
		t.Errorf("--split dev: want a split config entry and 2 items")
	}
}

// validate --strict / --select / --ignore on the mixed-bad demo bundle;
// expected counts are taken from the pinned golden output
// (testdata/validate/bad.golden.json), not from the selector.
func TestValidateGates(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "validate", "bad.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden engine.ValidateOutput
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	perCode := map[string]int{}
	b2 := 0
	for _, f := range golden.Findings {
		perCode[f.Code]++
		if strings.HasPrefix(f.Code, "b2.") {
			b2++
		}
	}
	if perCode["rag.config-hash"] == 0 || golden.Counts.Error == 0 {
		t.Fatal("golden lost the findings this test relies on")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	writeDemoBundle(t, dir, "bad.eval752.zip", true)
	count := func(args ...string) (engine.ValidateOutput, int) {
		out, stderr, code := runMain(t, append(append([]string{"validate", "--json"}, args...), "bad.eval752.zip")...)
		var doc engine.ValidateOutput
		if code != ExitCantRun {
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v: %v (stderr %q)", args, err, stderr)
			}
		}
		return doc, code
	}
	// rag.config-hash is a warning: selected alone it passes, unless --strict
	doc, code := count("--select", "rag.config-hash")
	if code != ExitOK || doc.Counts.Warning != perCode["rag.config-hash"] || doc.Counts.Error != 0 {
		t.Errorf("--select rag.config-hash: exit %d counts %+v, want 0 and %d warnings", code, doc.Counts, perCode["rag.config-hash"])
	}
	if _, code := count("--strict", "--select", "rag.config-hash"); code != ExitErrors {
		t.Errorf("--strict with warnings: exit %d, want 1", code)
	}
	doc, _ = count("--select", "b2.*")
	if len(doc.Findings) != b2 {
		t.Errorf("--select b2.*: %d findings, want %d", len(doc.Findings), b2)
	}
	doc, _ = count("--select", "b2.*", "--ignore", "b2.region-shape")
	if len(doc.Findings) != b2-perCode["b2.region-shape"] {
		t.Errorf("--ignore wins over --select: %d findings, want %d", len(doc.Findings), b2-perCode["b2.region-shape"])
	}
	doc, _ = count("--ignore", "*")
	if len(doc.Findings) != 0 {
		t.Errorf("--ignore '*' left %d findings", len(doc.Findings))
	}
	if _, code := count("--select", "b2.no-such-rule"); code != ExitCantRun {
		t.Errorf("unknown rule: exit %d, want 2", code)
	}
	out, _, _ := runMain(t, "validate", "--strict", "--ignore", "rag.*", "bad.eval752.zip")
	if !strings.Contains(out, "left out by ignore rag.*; strict: warnings count as errors)") {
		t.Errorf("summary does not say what the gates did:\n%s", out[max(0, len(out)-400):])
	}
}

// audit --split keeps the findings on records of that split (and those on
// no split-bearing record); --strict fails on warnings.
func TestAuditGates(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeDemoBundle(t, dir, "demo.eval752.zip", false)
	all, _, code := runMain(t, "audit", "--json", "demo.eval752.zip")
	if code != ExitOK {
		t.Fatalf("audit demo: exit %d", code)
	}
	var doc struct {
		Findings []struct {
			Code string `json:"code"`
			Path string `json:"path"`
			Line int    `json:"line"`
		} `json:"findings"`
		Counts struct{ Warning int } `json:"counts"`
	}
	if err := json.Unmarshal([]byte(all), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Counts.Warning == 0 {
		t.Fatal("the demo audit has no warning: this test needs one")
	}
	if _, _, code := runMain(t, "audit", "--strict", "demo.eval752.zip"); code != ExitErrors {
		t.Errorf("audit --strict with warnings: exit %d, want 1", code)
	}
	if _, _, code := runMain(t, "audit", "--strict", "--ignore", "*", "demo.eval752.zip"); code != ExitOK {
		t.Errorf("audit --strict --ignore '*': exit %d, want 0", code)
	}
	n := func(split string) int {
		out, stderr, code := runMain(t, "audit", "--json", "--split", split, "demo.eval752.zip")
		if code == ExitCantRun {
			t.Fatalf("--split %s: %s", split, stderr)
		}
		var d struct {
			Findings []json.RawMessage `json:"findings"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return len(d.Findings)
	}
	dev, test := n("dev"), n("test")
	if dev >= len(doc.Findings) || test >= len(doc.Findings) || dev+test < len(doc.Findings) {
		t.Errorf("--split: dev %d + test %d findings vs %d in all: each split must drop some and together cover all", dev, test, len(doc.Findings))
	}
	if _, stderr, code := runMain(t, "audit", "--split", "train", "demo.eval752.zip"); code != ExitCantRun || !strings.Contains(stderr, "no record of that split") {
		t.Errorf("--split train: exit %d %q", code, stderr)
	}
}
