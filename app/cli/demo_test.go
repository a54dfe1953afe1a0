package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/demo"
)

func TestDemoCommand(t *testing.T) {
	var good, bad bytes.Buffer
	if err := demo.Build(&good); err != nil {
		t.Fatal(err)
	}
	if err := demo.BuildBad(&bad); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		code int
		want []byte // the file's expected bytes; nil = no file
		out  string
	}{
		{"writes the demo", []string{filepath.Join(dir, "web", "demo.eval752.zip")}, ExitOK, good.Bytes(), "wrote "},
		{"writes the bad demo", []string{"--bad", filepath.Join(dir, "bad.eval752.zip")}, ExitOK, bad.Bytes(), "wrote "},
		{"no OUT", nil, ExitCantRun, nil, ""},
		{"two OUTs", []string{"a.zip", "b.zip"}, ExitCantRun, nil, ""},
		{"unknown flag", []string{"--nope", "a.zip"}, ExitCantRun, nil, ""},
		{"unwritable OUT", []string{filepath.Join(dir, "web", "demo.eval752.zip", "x.zip")}, ExitCantRun, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), append([]string{"demo"}, c.args...), &stdout, &stderr)
			if code != c.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, c.code, stderr.String())
			}
			if !strings.HasPrefix(stdout.String(), c.out) {
				t.Errorf("stdout %q", stdout.String())
			}
			if c.want != nil {
				got, err := os.ReadFile(c.args[len(c.args)-1])
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, c.want) {
					t.Errorf("file differs from demo.Build's bytes")
				}
			}
		})
	}
	// "-" writes the zip to standard output
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"demo", "-"}, &stdout, &stderr); code != ExitOK || !bytes.Equal(stdout.Bytes(), good.Bytes()) {
		t.Errorf("demo -: exit %d, %d bytes", code, stdout.Len())
	}
	// no temporary files are left beside OUT
	left, _ := filepath.Glob(filepath.Join(dir, "web", ".*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
