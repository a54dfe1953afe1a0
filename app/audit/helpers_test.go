package audit

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// readJSONL decodes every line of a JSONL file into T with its location. It
// is the tests' own reader, independent of dataset.Load, so the audit's
// tests do not depend on the readers' detection.
// testFiles is the file table of the records the tests build by hand;
// withFiles gives it to a Dataset that has none.
var testFiles dataset.Dataset

func withFiles(ds *dataset.Dataset) *dataset.Dataset {
	if ds != nil && ds.Files == nil {
		ds.Files = testFiles.Files
	}
	return ds
}

func readJSONL[T any](t *testing.T, path string) []dataset.Rec[T] {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []dataset.Rec[T]
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		out = append(out, dataset.Rec[T]{Loc: testFiles.At(filepath.ToSlash(path), line, 0), V: v, Typed: true})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

const fixtureDir = "testdata/fixture"

// fixture builds the Dataset of testdata/fixture directly.
func fixture(t *testing.T) *dataset.Dataset {
	t.Helper()
	ds := &dataset.Dataset{Has: map[model.Format]bool{model.FormatV2Question: true, model.FormatClause: true, model.FormatRAGDocument: true}}
	ds.V2 = readJSONL[model.V2Question](t, fixtureDir+"/questions.jsonl")
	ds.Clauses = readJSONL[model.Clause](t, fixtureDir+"/clauses.jsonl")
	ds.Documents = readJSONL[model.RAGDocument](t, fixtureDir+"/documents.jsonl")
	return ds
}

// idAt maps a question file line to the question id.
func idAt(ds *dataset.Dataset) map[int]string {
	m := map[int]string{}
	for _, r := range ds.V2 {
		m[int(r.Line)] = r.V.ID
	}
	return m
}

func str(s string) *string { return &s }

// foundAndPlanted lists fs as sorted "code@where" keys, next to the sorted
// plantedFindings they should equal.
func foundAndPlanted(fs finding.List, ds *dataset.Dataset) (got, want []string) {
	ids := idAt(ds)
	for _, f := range fs {
		got = append(got, f.Code+"@"+where(f, ids))
	}
	want = append([]string(nil), plantedFindings...)
	sort.Strings(got)
	sort.Strings(want)
	return got, want
}
