package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/demo"
	"eval752/app/engine"
)

// seedFolder lays the demo's seed-003 files out as seed 003 §10's
// experiment folder (data/ eval/ runs/<id>/) under dir/exp, plus what a
// real folder also holds: a hidden file and folder, and a note of no
// format eval752 reads. It returns the folder and the files a user would
// list by hand (every non-hidden file, in lexical order).
func seedFolder(t *testing.T, dir string) (string, []string) {
	t.Helper()
	files, err := demo.Folder()
	if err != nil {
		t.Fatal(err)
	}
	exp := filepath.Join(dir, "exp")
	files["NOTES.txt"] = []byte("made by hand\n")
	files[".DS_Store"] = []byte{0, 0, 0, 1, 'B', 'u', 'd', '1'}
	files[".git/config"] = []byte("[core]\n")
	if err := demo.WriteFiles(exp, files); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for name := range files {
		if !strings.HasPrefix(name, ".") {
			listed = append(listed, filepath.Join("exp", name))
		}
	}
	slices.Sort(listed)
	return exp, listed
}

// A folder on the command line is the files under it: the same runs (named
// by runs/<id>/, not by the file name predictions.jsonl they share), the
// same report as the files listed by hand, hidden entries left out, and a
// file of no known format noted rather than an error (the user did not
// pick it by itself; given alone it is an error).
func TestFolderInput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	_, listed := seedFolder(t, dir)

	out, stderr, code := runMain(t, "validate", "--json", "exp")
	if code != ExitOK {
		t.Fatalf("validate exp: exit %d\n%s%s", code, out, stderr)
	}
	var doc engine.ValidateOutput
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, in := range doc.Inputs {
		paths = append(paths, in.Path)
	}
	if !slices.Equal(paths, listed) {
		t.Errorf("inputs of the folder = %v\nwant the non-hidden files %v", paths, listed)
	}
	noted := false
	for _, f := range doc.Findings {
		if f.Path == filepath.Join("exp", "NOTES.txt") {
			noted = f.Severity.String() == "info"
		}
	}
	if !noted {
		t.Errorf("NOTES.txt in the folder: want an info finding, got %+v", doc.Findings)
	}
	if _, _, code := runMain(t, "validate", filepath.Join("exp", "NOTES.txt")); code != ExitErrors {
		t.Errorf("NOTES.txt given alone: exit %d, want %d", code, ExitErrors)
	}

	code, folder, errs := runCLI(t, "score", "--json", "--bootstrap", "200", "exp")
	if code != ExitOK {
		t.Fatalf("score exp: exit %d, stderr %s", code, errs)
	}
	rest := slices.DeleteFunc(slices.Clone(listed), func(p string) bool { return strings.HasSuffix(p, "NOTES.txt") })
	code, byHand, errs := runCLI(t, append([]string{"score", "--json", "--bootstrap", "200"}, rest...)...)
	if code != ExitOK {
		t.Fatalf("score of the listed files: exit %d, stderr %s", code, errs)
	}
	r := decodeReport(t, folder)
	var runs string
	for _, kv := range r.Config {
		if kv.Key == "runs" {
			runs = kv.Value
		}
	}
	if want := "bm25,hybrid-rerank,hybrid-rerank.retrieve"; runs != want {
		t.Errorf("runs of the folder = %v, want %v", runs, want)
	}
	// the reports differ only in the NOTES.txt input line
	h := decodeReport(t, byHand)
	r.Inputs = slices.DeleteFunc(r.Inputs, func(in dataset.InputInfo) bool { return strings.HasSuffix(in.Path, "NOTES.txt") })
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(h)
	if !bytes.Equal(a, b) {
		t.Errorf("score of the folder differs from score of its files listed by hand")
	}

	empty := filepath.Join(dir, "empty", ".hidden")
	os.MkdirAll(empty, 0o755)
	if _, stderr, code := runMain(t, "validate", filepath.Join(dir, "empty")); code != ExitCantRun || !strings.Contains(stderr, "no file") {
		t.Errorf("a folder with only hidden entries: exit %d, stderr %q; want %d and a message", code, stderr, ExitCantRun)
	}
}
