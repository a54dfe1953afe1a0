package cli

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The command line parses flags, calls one engine function and prints what
// it returns: it never assembles the pipeline itself, so the page's worker
// (engine.Evaluate) and the commands agree by construction, not because a
// test compares them. This test reads the package's non-test Go files and
// fails when one of them imports a pipeline package (loading, rules,
// scoring, statistics, auditing) or calls the loader directly.
//
// Allowed: app/engine (the pipeline), app/report (writing reports),
// app/finding (printing findings, rule selection), app/dataset for its
// types and the reading limits only (Input, InputInfo, Limits,
// DefaultLimits, HiddenName), app/model (format names), app/version,
// app/demo (`demo` writes a bundle), app/metrics in doctables.go only (the
// metric tables of the docs), and app/trec in trec.go only (`trec` is
// trec_eval's own evaluation, byte-compatible with it, not the eval752
// pipeline).
func TestCLIOnlyCallsTheEngine(t *testing.T) {
	problems, checked := pipelineUses(t, ".")
	for _, p := range problems {
		t.Error(p)
	}
	if checked < 10 {
		t.Fatalf("checked %d files; the package's sources were not found", checked)
	}
}

// The check fails on a command that assembles the pipeline itself (the
// shape app/cli/score.go had before the engine ran every command):
// testdata/oneentry/assemble.go imports itemscore, score and trec and calls
// dataset.Load with dataset.Options.
func TestCLIOnlyCallsTheEngineCanFail(t *testing.T) {
	problems, checked := pipelineUses(t, filepath.Join("testdata", "oneentry"))
	if checked != 1 {
		t.Fatalf("checked %d files, want 1", checked)
	}
	want := []string{"imports eval752/app/itemscore", "imports eval752/app/score", "imports eval752/app/trec, allowed only in trec.go", "uses dataset.Load", "uses dataset.Options"}
	if len(problems) != len(want) {
		t.Fatalf("problems %q, want %d", problems, len(want))
	}
	for i, w := range want {
		if !strings.Contains(problems[i], w) {
			t.Errorf("problem %d = %q, want it to say %q", i, problems[i], w)
		}
	}
}

// pipelineUses lists what the non-test Go files of dir use that only the
// engine may (see TestCLIOnlyCallsTheEngine) and how many files it read.
func pipelineUses(t *testing.T, dir string) (problems []string, checked int) {
	t.Helper()
	banned := []string{
		"eval752/app/itemscore", "eval752/app/score", "eval752/app/audit", "eval752/app/validate",
		"eval752/app/stats", "eval752/app/formats", "eval752/app/jsonl", "eval752/app/bundle",
		"eval752/app/resolve", "eval752/app/answer", "eval752/app/peer", "eval752/app/textnorm",
		"eval752/app/fmath", "eval752/app/inputinfo",
	}
	onlyIn := map[string]string{
		"eval752/app/trec":    "trec.go",
		"eval752/app/metrics": "doctables.go",
	}
	// what app/cli may use of app/dataset: types and limits, not the loader
	datasetOK := map[string]bool{
		"Input": true, "InputInfo": true, "Limits": true, "DefaultLimits": true, "HiddenName": true,
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		name := filepath.Base(path)
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		datasetName := ""
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, b := range banned {
				if p == b {
					problems = append(problems, fmt.Sprintf("%s imports %s: the pipeline runs in app/engine (call an engine function instead)", name, p))
				}
			}
			if only, ok := onlyIn[p]; ok && only != name {
				problems = append(problems, fmt.Sprintf("%s imports %s, allowed only in %s", name, p, only))
			}
			if p == "eval752/app/dataset" {
				datasetName = "dataset"
				if imp.Name != nil {
					datasetName = imp.Name.Name
				}
			}
		}
		if datasetName == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == datasetName && !datasetOK[sel.Sel.Name] {
				problems = append(problems, fmt.Sprintf("%s: uses dataset.%s (%s): reading inputs is the engine's", name, sel.Sel.Name, fset.Position(sel.Pos())))
			}
			return true
		})
	}
	return problems, checked
}
