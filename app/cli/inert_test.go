package cli

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"eval752/app/engine"
)

// forged is what a crafted entry name tries to smuggle into the output: a
// line a CI parser would take for a finding, and a terminal clear.
const forged = "./forged.jsonl:1: error fake.rule: forged finding"

// craftedBundle is a zip whose entry names carry \n, \r and ESC.
func craftedBundle(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for name, body := range map[string]string{
		"sections/a.jsonl\n" + forged + "\x1b[2J": "{not json\n",
		"notes\r\n" + forged + ".txt":             "x",
	} {
		fw, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(body))
	}
	w.Close()
	return b.Bytes()
}

// textLine is every line validate's text output may print: a finding, its
// indented pointer or hint, the counts and the per-code summary.
var textLine = regexp.MustCompile(`^(\S.*:\d+: (error|warning|info) [a-z0-9_.-]+: .*|    (at|hint): .*|\d+ error\(s\), \d+ warning\(s\), \d+ info in \d+ file\(s\)|  [a-z0-9_.-]+ +(error|warning|info) +\d+)$`)

// noControl fails on any control character but the line feed.
func noControl(t *testing.T, what, s string) {
	t.Helper()
	for _, c := range s {
		if c < 0x20 && c != '\n' || c == 0x7f {
			t.Errorf("%s holds the control character %q", what, c)
			return
		}
	}
}

// Text output is inert: entry names holding \n, \r and ESC are printed
// escaped, so every line of `validate` is one finding (or its indented
// pointer / hint, or the summary) and the forged line never starts a line.
// Before, the name was printed raw and the forged line was a finding of its
// own. JSON and CSV keep the exact name (their own escaping).
func TestTextOutputIsInert(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("crafted.zip", craftedBundle(t), 0o644)
	out, _, code := runMain(t, "validate", "crafted.zip")
	if code == ExitCantRun {
		t.Fatalf("validate: exit %d\n%s", code, out)
	}
	noControl(t, "validate's text output", out)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !textLine.MatchString(l) {
			t.Errorf("a line that is not one finding: %q", l)
		}
		if strings.HasPrefix(l, "./forged") {
			t.Errorf("the forged line starts a line: %q", l)
		}
	}
	if !strings.Contains(out, `crafted.zip!sections/a.jsonl\n./forged.jsonl:1: error fake.rule: forged finding\x1b[2J`) {
		t.Errorf("the entry name is not shown escaped:\n%s", out)
	}

	// JSON: the exact name, JSON-escaped
	js, _, _ := runMain(t, "validate", "--json", "crafted.zip")
	noControl(t, "validate --json", js)
	var v engine.ValidateOutput
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	exact := false
	for _, f := range v.Findings {
		exact = exact || f.Path == "crafted.zip!sections/a.jsonl\n"+forged+"\x1b[2J"
	}
	if !exact {
		t.Errorf("--json lost the exact entry name: %+v", v.Findings)
	}

	// audit's text and Markdown: no control character, no forged line
	for _, args := range [][]string{{"audit", "crafted.zip"}, {"audit", "--md", "crafted.zip"}} {
		out, _, _ := runMain(t, args...)
		noControl(t, strings.Join(args, " "), out)
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "./forged") {
				t.Errorf("%v: the forged line starts a line: %q", args, l)
			}
		}
	}

	// CSV: the exact name, in a quoted field (as CSV quotes a field with a
	// line break; encoding/csv's reader would turn its \r\n into \n, so the
	// bytes are compared)
	if code, _, errs := runCLI(t, "results", "--bootstrap", "100", "r.zip", "crafted.zip"); code == ExitCantRun {
		t.Fatalf("results: %s", errs)
	}
	zb, _ := os.ReadFile("r.zip")
	files, _ := unzipAll(t, zb)
	fcsv := files[engine.ResultsDir+"findings.csv"]
	if _, err := csv.NewReader(bytes.NewReader(fcsv)).ReadAll(); err != nil {
		t.Fatalf("findings.csv does not parse: %v", err)
	}
	if !bytes.Contains(fcsv, []byte(`,"crafted.zip!notes`+"\r\n"+forged+`.txt",`)) {
		t.Errorf("findings.csv lost the exact entry name:\n%s", fcsv)
	}
}

// Score's text and Markdown print a run name holding ESC, CR and LF inert:
// a table row stays one line and nothing reaches the terminal raw.
func TestReportTextInert(t *testing.T) {
	dir := t.TempDir()
	items, err := os.ReadFile("testdata/score/items.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	os.WriteFile("items.jsonl", items, 0o644)
	os.WriteFile("results.jsonl", []byte(`{"run":"evil\u001b[2J\r\n| forged | row |","item_id":"q1","response":"4"}`+"\n"), 0o644)
	for _, format := range []string{"", "--md"} {
		args := []string{"score", "--bootstrap", "100"}
		if format != "" {
			args = append(args, format)
		}
		code, out, errs := runCLI(t, append(args, "items.jsonl", "results.jsonl")...)
		if code != ExitOK {
			t.Fatalf("score %s: exit %d, %s", format, code, errs)
		}
		noControl(t, "score "+format, out)
		if !strings.Contains(out, `evil\x1b[2J`) {
			t.Errorf("score %s: the run name is not shown escaped", format)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "| forged") {
				t.Errorf("score %s: a forged table row: %q", format, l)
			}
		}
	}
}

// trec prints a qid or run tag holding ESC (trec_eval splits on white space
// only, so ESC is part of the token) inert; the other lines are trec_eval's.
func TestTrecOutputInert(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("qrels", []byte("q\x1b[2J 0 d1 1\n"), 0o644)
	os.WriteFile("run", []byte("q\x1b[2J Q0 d1 1 0.5 tag\x1b]0;x\x07\n"), 0o644)
	code, out, errs := runCLI(t, "trec", "-q", "-m", "runid", "-m", "map", "qrels", "run")
	if code != ExitOK {
		t.Fatalf("trec: exit %d, %s", code, errs)
	}
	noControl(t, "trec's output", strings.ReplaceAll(out, "\t", " "))
	if !strings.Contains(out, "map                   \tq\\x1b[2J\t1.0000\n") {
		t.Errorf("the qid is not shown escaped:\n%q", out)
	}
	if !strings.Contains(out, "runid                 \tall\ttag\\x1b]0;x\\a\n") {
		t.Errorf("the run tag is not shown escaped:\n%q", out)
	}
}
