package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"eval752/app/engine"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"eval752/app/demo"
)

var updateGolden = flag.Bool("update-validate", false, "rewrite testdata/validate/*.golden")

// writeDemo writes the demo (or the mixed-bad demo) into dir under a fixed
// relative name so that paths in the output are stable.
func writeDemoBundle(t *testing.T, dir, name string, bad bool) {
	t.Helper()
	var buf bytes.Buffer
	build := demo.Build
	if bad {
		build = demo.BuildBad
	}
	if err := build(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runMain(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// The JSON output of `validate --json` on the mixed-bad bundle is pinned: the
// CLI contract (keys, order, severity names) and every planted finding.
// Regenerate with `go test ./app/cli -run ValidateGolden -update-validate`
// after a deliberate rule change, and review the diff.
func TestValidateGoldenBad(t *testing.T) {
	golden, err := filepath.Abs(filepath.Join("testdata", "validate", "bad.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	writeDemoBundle(t, dir, "bad.eval752.zip", true)
	out, stderr, code := runMain(t, "validate", "--json", "bad.eval752.zip")
	if code != ExitErrors {
		t.Fatalf("exit %d, want %d (stderr %q)", code, ExitErrors, stderr)
	}
	var doc engine.ValidateOutput
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("output is not the contract's JSON: %v", err)
	}
	// The contract's top-level keys, and nothing else.
	var keys map[string]json.RawMessage
	json.Unmarshal([]byte(out), &keys)
	if len(keys) != 3 || keys["inputs"] == nil || keys["findings"] == nil || keys["counts"] == nil {
		t.Fatalf("top-level keys = %v, want inputs, findings, counts", keys)
	}
	if *updateGolden {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update-validate to create it)", err)
	}
	if out != string(want) {
		t.Fatalf("validate --json differs from %s; diff it after `go test ./app/cli -run ValidateGolden -update-validate`", golden)
	}
}

// The good demo validates with exit 0, and the text output follows the
// contract "path:line: severity code: message".
func TestValidateTextDemo(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeDemoBundle(t, dir, "demo.eval752.zip", false)
	writeDemoBundle(t, dir, "bad.eval752.zip", true)
	out, _, code := runMain(t, "validate", "demo.eval752.zip")
	if code != ExitOK {
		t.Fatalf("demo: exit %d\n%s", code, out)
	}
	out, _, code = runMain(t, "validate", "bad.eval752.zip")
	if code != ExitErrors {
		t.Fatalf("bad demo: exit %d", code)
	}
	line := regexp.MustCompile(`^bad\.eval752\.zip(!\S+)?:\d+: (error|warning|info) [a-z0-9.-]+: .+$`)
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "bad.eval752.zip") {
			n++
			if !line.MatchString(l) {
				t.Errorf("line does not follow the contract: %q", l)
			}
		}
	}
	if n == 0 {
		t.Fatal("no finding lines printed")
	}
}

// Exit status 2 when the command cannot run; a plain JSONL file is validated
// on its own with its format detected.
func TestValidateExitCodes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, _, code := runMain(t, "validate"); code != ExitCantRun {
		t.Errorf("no path: exit %d", code)
	}
	if _, _, code := runMain(t, "validate", "missing.jsonl"); code != ExitCantRun {
		t.Errorf("missing file: exit %d", code)
	}
	if _, _, code := runMain(t, "validate", "--bogus", "x"); code != ExitCantRun {
		t.Errorf("bad flag: exit %d", code)
	}
	if _, _, code := runMain(t, "validate", "--format", "nope", "x"); code != ExitCantRun {
		t.Errorf("bad format: exit %d", code)
	}
	if _, _, code := runMain(t, "validate", "."); code != ExitCantRun {
		t.Errorf("empty folder: exit %d", code)
	}
	// Seed 004's example item, then the same item with its answer not among
	// the choices on line 2, and a malformed line 3: errors at lines 2 and 3.
	good := `{"id":"q-001","type":"mcq_single","inputs":{"text":"法国的首都是？","images":[],"audio":[],"video":[]},"choices":["伦敦","巴黎","柏林","马德里"],"answer":"巴黎","checker":null,"criteria":null,"meta":{"source":"geography-basics","difficulty":"easy","section":"Europe"}}`
	bad := strings.Replace(strings.Replace(good, `"q-001"`, `"q-002"`, 1), `"answer":"巴黎"`, `"answer":"罗马"`, 1)
	os.WriteFile("items.jsonl", []byte(good+"\n"+bad+"\n{\"id\": \n"), 0o644)
	out, _, code := runMain(t, "validate", "--json", "items.jsonl")
	if code != ExitErrors {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var doc engine.ValidateOutput
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Inputs) != 1 || doc.Inputs[0].Format != "eval752.item" || doc.Inputs[0].Lines != 3 {
		t.Fatalf("inputs = %+v", doc.Inputs)
	}
	lines := map[int]bool{}
	for _, f := range doc.Findings {
		if f.Severity.String() == "error" {
			lines[f.Line] = true
		}
	}
	if !lines[2] || !lines[3] || lines[1] {
		t.Fatalf("error lines = %v, want 2 and 3 only: %+v", lines, doc.Findings)
	}
}

// Flags may follow the paths (as score, audit and trec accept), and compare
// names every run of the inputs when a requested run does not exist.
func TestFlagsAfterPathsAndRunList(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeDemoBundle(t, dir, "demo.eval752.zip", false)
	out, _, code := runMain(t, "validate", "demo.eval752.zip", "--json")
	if code != ExitOK || !strings.HasPrefix(out, "{") {
		t.Fatalf("validate PATH --json: exit %d, output %.40q", code, out)
	}
	_, stderr, code := runMain(t, "compare", "hybrid-rerank", "nosuch", "demo.eval752.zip")
	if code != ExitCantRun || !strings.Contains(stderr, "bm25") || !strings.Contains(stderr, "hybrid-rerank") {
		t.Fatalf("compare with an unknown run: exit %d, stderr %q (want both demo runs named)", code, stderr)
	}
}
