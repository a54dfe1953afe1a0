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
	"path/filepath"
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
	if len(m.Files) != len(names)-1 || m.Files[0].Path != "README.md" { // all but manifest.json itself
		t.Errorf("manifest lists %d files, the bundle has %d entries", len(m.Files), len(names))
	}
	for _, f := range m.Files {
		sum := sha256.Sum256(get(f.Path))
		if hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Errorf("manifest sha256 of %s is not the file's", f.Path)
		}
		if f.Path != "README.md" && !strings.Contains(string(get("README.md")), f.SHA256) {
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

// boundApproval is what a CLOUD_APPROVED document's approval binds (seed
// 003 §1.2; rag.approval-void otherwise). The hashes are placeholders.
const boundApproval = `"security_review":"passed","cloud_approved_by":"r","raw_sha256":"` + zeroSHA + `","parser_profile_hash":"p","ocr_profile_hash":"o",` +
	`"normalization_profile_hash":"n","chunk_profile_hash":"c","cloud_policy_id":"cp","outbound_manifest_sha256":"` + zeroSHA + `"`

const zeroSHA = "0000000000000000000000000000000000000000000000000000000000000000"

// A split-isolation error (seed 003 §3.3: one document's text in two
// splits) is a validation gate (SPEC §3, issue 11): `validate` exits 1 on it,
// as `audit` and `results` do, and the results manifest counts it in the
// validation counts and in the audit's (which include validation's).
func TestResultsSplitLeakErrorExit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	doc := func(id, split string) string {
		return `{"doc_id":"` + id + `","title":"t","review_state":"CLOUD_APPROVED",` + boundApproval + `,"split":"` + split + `","text":"甲地铜矿位于北部山区。样品H1的铜品位为1.20%。钻孔ZK1深度为300米。"}`
	}
	os.WriteFile("documents.jsonl", []byte(doc("doc_a", "train")+"\n"+doc("doc_c", "test")+"\n"), 0o644)
	if code, out, _ := runCLI(t, "validate", "documents.jsonl"); code != ExitErrors || !strings.Contains(out, "documents.jsonl:2: error audit.leak-doc-exact") {
		t.Fatalf("validate: exit %d, want %d with audit.leak-doc-exact at documents.jsonl:2\n%s", code, ExitErrors, out)
	}
	if code, _, _ := runAuditCmd("documents.jsonl"); code != ExitErrors {
		t.Fatalf("audit: exit %d, want %d (leak-doc-exact)", code, ExitErrors)
	}
	code, out, errs := runCLI(t, "results", "out.zip", "documents.jsonl")
	if code != ExitErrors || !strings.Contains(out, "set-design audit: 1 error(s)") {
		t.Errorf("results: exit %d, stdout %q, stderr %q; want %d and the audit's error counted", code, out, errs, ExitErrors)
	}
	zb, _ := os.ReadFile("out.zip")
	files, _ := unzipAll(t, zb)
	var m engine.ResultsManifest
	if err := json.Unmarshal(files[engine.ResultsDir+"manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	if m.AuditCounts == nil || m.AuditCounts.Error != 1 || m.Counts.Error != 1 {
		t.Errorf("manifest counts %+v, audit counts %+v; want the one leak in both", m.Counts, m.AuditCounts)
	}
}

// A results bundle moved into the folder it was made from is recognised on
// the next run (bundle.results, info), not read as a broken dataset bundle.
// (`results` itself refuses to write inside an input folder: see
// TestWritersNeverOverwriteInputs.)
func TestResultsBundleInItsFolder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.Mkdir("f", 0o755)
	writeDemoBundle(t, filepath.Join(dir, "f"), "demo.eval752.zip", false)
	if code, _, errs := runCLI(t, "results", "--bootstrap", "100", "results.zip", "f"); code != ExitOK {
		t.Fatalf("first results: exit %d, stderr %q", code, errs)
	}
	if err := os.Rename("results.zip", filepath.Join("f", "results.zip")); err != nil {
		t.Fatal(err)
	}
	out, _, code := runMain(t, "validate", "--json", "f")
	var v engine.ValidateOutput
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	for _, f := range v.Findings {
		codes[f.Code]++
	}
	if code != ExitOK || v.Counts.Warning != 0 || codes["bundle.results"] != 1 {
		t.Errorf("validate of the folder with its results zip: exit %d, counts %+v, codes %v; want exit 0, no warning, one bundle.results", code, v.Counts, codes)
	}
}
