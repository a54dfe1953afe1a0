package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sha256File(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// No writer writes over what it was given: `results` and `demo` refuse, with
// exit 2 and a one-line reason, an OUT that is an input (however it is
// spelled: same path, ./ prefix, a symbolic or a hard link), inside an input
// folder, an existing folder, or an existing file without --force; the
// inputs keep their bytes and no temporary file is left behind. Before this
// rule, `results a.zip a.zip` overwrote its input and exited 0, and
// `results f f` failed with a raw rename error.
func TestWritersNeverOverwriteInputs(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeDemoBundle(t, dir, "a.eval752.zip", false)
	os.Mkdir("f", 0o755)
	writeDemoBundle(t, filepath.Join(dir, "f"), "b.eval752.zip", false)
	if err := os.Symlink("a.eval752.zip", "sym.zip"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link("a.eval752.zip", "hard.zip"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile("old.zip", []byte("the user's file"), 0o644)
	os.Mkdir("adir", 0o755)
	inputs := []string{"a.eval752.zip", filepath.Join("f", "b.eval752.zip"), "old.zip"}
	before := map[string]string{}
	for _, p := range inputs {
		before[p] = sha256File(t, p)
	}
	cases := []struct {
		name string
		args []string
		want string // in the one-line reason
	}{
		{"results OUT is its input", []string{"results", "a.eval752.zip", "a.eval752.zip"}, "is the input"},
		{"results OUT is its input spelled ./", []string{"results", "./a.eval752.zip", "a.eval752.zip"}, "is the input"},
		{"results OUT is its input even with --force", []string{"results", "--force", "a.eval752.zip", "a.eval752.zip"}, "is the input"},
		{"results OUT is a symlink to its input", []string{"results", "--force", "sym.zip", "a.eval752.zip"}, "is the input"},
		{"results OUT is a hard link to its input", []string{"results", "--force", "hard.zip", "a.eval752.zip"}, "is the input"},
		{"results DIR DIR", []string{"results", "f", "f"}, "is the input"},
		{"results OUT inside its input folder", []string{"results", "--force", filepath.Join("f", "r.zip"), "f"}, "inside the input folder"},
		{"results OUT contains its input", []string{"results", "--force", ".", "f"}, "contains the input"},
		{"results OUT exists", []string{"results", "old.zip", "a.eval752.zip"}, "give --force"},
		{"results OUT is a folder", []string{"results", "--force", "adir", "a.eval752.zip"}, "is a folder"},
		{"demo OUT exists", []string{"demo", "old.zip"}, "give --force"},
		{"demo OUT is a folder", []string{"demo", "--force", "adir"}, "is a folder"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, c.args...)
			if code != ExitCantRun || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line saying %q", code, errs, ExitCantRun, c.want)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			for p, sum := range before {
				if got := sha256File(t, p); got != sum {
					t.Errorf("%s was changed", p)
				}
			}
		})
	}
	// --force replaces an existing file of the user's choosing (not an input)
	if code, _, errs := runCLI(t, "demo", "--force", "old.zip"); code != ExitOK {
		t.Fatalf("demo --force: exit %d, %s", code, errs)
	}
	if sha256File(t, "old.zip") == before["old.zip"] {
		t.Error("demo --force did not replace old.zip")
	}
	if code, _, errs := runCLI(t, "results", "--bootstrap", "100", "--force", "old.zip", "a.eval752.zip"); code != ExitOK {
		t.Fatalf("results --force: exit %d, %s", code, errs)
	}
	// a new OUT needs no flag, in a folder that does not exist yet either
	if code, _, errs := runCLI(t, "results", "--bootstrap", "100", filepath.Join("new", "r.zip"), "a.eval752.zip"); code != ExitOK {
		t.Fatalf("results to a new OUT: exit %d, %s", code, errs)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	left2, _ := filepath.Glob(filepath.Join(dir, "new", ".*"))
	if len(left)+len(left2) != 0 {
		t.Errorf("temporary files left: %v %v", left, left2)
	}
}

// CheckOut's own cases for a folder writer (export-static's rule): the
// source folder, a folder inside it or around it, a file, a folder that is
// not empty without force.
func TestCheckOutFolder(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "static")
	os.MkdirAll(filepath.Join(src, "web"), 0o755)
	os.WriteFile(filepath.Join(src, "app.css"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	os.MkdirAll(filepath.Join(dir, "full", "x"), 0o755)
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	os.Symlink(src, filepath.Join(dir, "link"))
	cases := []struct {
		out   string
		force bool
		want  string // "" = allowed
	}{
		{src, true, "is the input"},
		{filepath.Join(dir, "link"), true, "is the input"},
		{filepath.Join(src, "web"), true, "inside the input folder"},
		{filepath.Join(dir, "link", "site"), true, "inside the input folder"},
		{dir, true, "contains the input"},
		{filepath.Join(dir, "file"), true, "is a file"},
		{filepath.Join(dir, "full"), false, "not empty"},
		{filepath.Join(dir, "full"), true, ""},
		{filepath.Join(dir, "empty"), false, ""},
		{filepath.Join(dir, "new", "site"), false, ""},
	}
	for _, c := range cases {
		err := CheckOut(c.out, OutFolder, []string{src}, c.force)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckOut(%s, force %v) = %v, want allowed", c.out, c.force, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("CheckOut(%s, force %v) = %v, want %q", c.out, c.force, err, c.want)
		}
	}
}

// ReplaceDir leaves OUT as it was when filling fails, removes its temporary
// folder, and replaces a folder that is not empty only once the new one is
// complete.
func TestReplaceDir(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "old.txt"), []byte("old"), 0o644)
	err := ReplaceDir(out, func(tmp string) error {
		os.WriteFile(filepath.Join(tmp, "half.txt"), []byte("half"), 0o644)
		return os.ErrPermission
	})
	if err == nil {
		t.Fatal("a failing fill was not reported")
	}
	if b, _ := os.ReadFile(filepath.Join(out, "old.txt")); string(b) != "old" {
		t.Error("the old OUT was damaged by a failed fill")
	}
	if err := ReplaceDir(out, func(tmp string) error {
		return os.WriteFile(filepath.Join(tmp, "new.txt"), []byte("new"), 0o644)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "old.txt")); err == nil {
		t.Error("old.txt survived the replacement")
	}
	if b, _ := os.ReadFile(filepath.Join(out, "new.txt")); string(b) != "new" {
		t.Error("new.txt missing")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

// A symbolic link whose target does not exist is an existing entry the user
// made: `demo OUT` replaced it with a file in silence (os.Stat reports
// "does not exist" for a dangling link). Without --force it is refused like
// any existing OUT; with --force the link itself is replaced, never written
// through.
func TestDanglingLinkOut(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Symlink("missing.zip", "link.zip"); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "demo", "link.zip")
	if code != ExitCantRun || !strings.Contains(errs, "OUT link.zip is a symbolic link") || strings.Count(errs, "\n") != 1 {
		t.Errorf("demo onto a dangling link: exit %d, stderr %q", code, errs)
	}
	if st, err := os.Lstat("link.zip"); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced without --force: %v %v", st, err)
	}
	if code, _, errs := runCLI(t, "demo", "--force", "link.zip"); code != ExitOK {
		t.Fatalf("demo --force: exit %d, %s", code, errs)
	}
	if st, err := os.Lstat("link.zip"); err != nil || !st.Mode().IsRegular() {
		t.Errorf("--force: link.zip is %v (%v), want the written file", st, err)
	}
	if _, err := os.Lstat("missing.zip"); err == nil {
		t.Errorf("--force wrote through the link to its target")
	}
}
