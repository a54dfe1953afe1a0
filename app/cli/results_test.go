package cli

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"eval752/app/engine"
)

// unzipAll reads every entry of a zip.
func unzipAll(t *testing.T, b []byte) (map[string][]byte, []string) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	files := map[string][]byte{}
	var names []string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = data
		names = append(names, f.Name)
	}
	return files, names
}

// The results bundle holds, byte for byte, what each command prints for the
// same files and options; its manifest's sha256s are those of its files;
// and the same inputs give the same bytes.
func TestResultsBundle(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeDemoBundle(t, dir, "demo.eval752.zip", false)
	const boot = "200"
	code, out, errs := runCLI(t, "results", "--bootstrap", boot, "--run-a", "hybrid-rerank", "--run-b", "bm25", "out.zip", "demo.eval752.zip")
	if code != ExitOK || !strings.Contains(out, "wrote out.zip") {
		t.Fatalf("results: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	zb, err := os.ReadFile("out.zip")
	if err != nil {
		t.Fatal(err)
	}
	files, names := unzipAll(t, zb)
	for _, n := range names {
		if !strings.HasPrefix(n, engine.ResultsDir) {
			t.Errorf("entry %s is outside %s", n, engine.ResultsDir)
		}
	}
	get := func(name string) []byte {
		b, ok := files[engine.ResultsDir+name]
		if !ok {
			t.Fatalf("the bundle has no %s (entries %v)", name, names)
		}
		return b
	}
	for name, args := range map[string][]string{
		"findings.json": {"validate", "--json"},
		"score.json":    {"score", "--json", "--bootstrap", boot},
		"score.md":      {"score", "--md", "--bootstrap", boot},
		"score.csv":     {"score", "--csv", "--bootstrap", boot},
		"compare.json":  {"compare", "--json", "--bootstrap", boot, "hybrid-rerank", "bm25"},
		"compare.md":    {"compare", "--md", "--bootstrap", boot, "hybrid-rerank", "bm25"},
		"audit.json":    {"audit", "--json"},
		"audit.md":      {"audit", "--md"},
		"audit.csv":     {"audit", "--csv"},
	} {
		_, want, _ := runCLI(t, append(args, "demo.eval752.zip")...)
		if want == "" || string(get(name)) != want {
			t.Errorf("%s differs from `eval752 %s demo.eval752.zip`", name, strings.Join(args, " "))
		}
	}
	// findings.csv: a header, then the findings of findings.json, in order
	var v engine.ValidateOutput
	if err := json.Unmarshal(get("findings.json"), &v); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(get("findings.csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Findings) == 0 || len(rows) != len(v.Findings)+1 || rows[0][1] != "code" || rows[1][1] != v.Findings[0].Code {
		t.Errorf("findings.csv has %d rows for %d findings: %q", len(rows), len(v.Findings), rows)
	}
	var m engine.ResultsManifest
	if err := json.Unmarshal(get("manifest.json"), &m); err != nil {
		t.Fatal(err)
	}
	if m.Kind != "eval752.results" || len(m.Compare) != 2 || m.Compare[0] != "hybrid-rerank" || m.Compare[1] != "bm25" {
		t.Errorf("manifest kind %q, compare %v", m.Kind, m.Compare)
	}
	if len(m.Inputs) != len(v.Inputs) || m.Inputs[0].SHA256 != v.Inputs[0].SHA256 {
		t.Errorf("manifest inputs %d, validate inputs %d", len(m.Inputs), len(v.Inputs))
	}
	if len(m.Files) != len(names)-2 { // all but README.md and manifest.json
		t.Errorf("manifest lists %d files, the bundle has %d entries", len(m.Files), len(names))
	}
	for _, f := range m.Files {
		sum := sha256.Sum256(get(f.Path))
		if hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Errorf("manifest sha256 of %s is not the file's", f.Path)
		}
		if !strings.Contains(string(get("README.md")), f.SHA256) {
			t.Errorf("README.md does not list %s", f.Path)
		}
	}
	// deterministic; - writes the zip to standard output
	if _, again, _ := runCLI(t, "results", "--bootstrap", boot, "--run-a", "hybrid-rerank", "--run-b", "bm25", "-", "demo.eval752.zip"); again != string(zb) {
		t.Errorf("a second run to stdout gives other bytes")
	}
}

func TestResultsExitCodes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeDemoBundle(t, dir, "bad.eval752.zip", true)
	if code, _, errs := runCLI(t, "results", "out.zip", "bad.eval752.zip"); code != ExitErrors {
		t.Errorf("bad bundle: exit %d, want %d (written, errors found); stderr %q", code, ExitErrors, errs)
	}
	if _, err := os.Stat("out.zip"); err != nil {
		t.Errorf("bad bundle: the results are not written: %v", err)
	}
	for _, args := range [][]string{
		{"results"},
		{"results", "out.zip"},
		{"results", "--bootstrap", "0", "o.zip", "bad.eval752.zip"},
		{"results", "--run-a", "bm25", "o.zip", "bad.eval752.zip"},
		{"results", "--run-a", "bm25", "--run-b", "nope", "o.zip", "bad.eval752.zip"},
		{"results", "o.zip", "missing.jsonl"},
	} {
		if code, _, _ := runCLI(t, args...); code != ExitCantRun {
			t.Errorf("%v: exit %d, want %d", args, code, ExitCantRun)
		}
	}
}
