package audit

import (
	"context"
	"os"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/finding"
)

// End to end from the JSONL files through dataset.Load (format detection
// included): the same planted findings as the hand-built dataset, and no
// reading finding on the fixture.
func TestFixtureThroughLoad(t *testing.T) {
	var inputs []dataset.Input
	for _, name := range []string{"questions.jsonl", "clauses.jsonl", "documents.jsonl"} {
		f, err := os.Open(fixtureDir + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, _ := f.Stat()
		inputs = append(inputs, dataset.Input{Name: fixtureDir + "/" + name, R: f, Size: st.Size()})
	}
	ds, err := dataset.Load(context.Background(), inputs, dataset.Options{Limits: dataset.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ds.Findings {
		if f.Severity != finding.Info {
			t.Errorf("reading finding on the fixture: %s", f)
		}
	}
	if len(ds.V2) != 64 || len(ds.Clauses) != 39 || len(ds.Documents) != 5 {
		t.Fatalf("loaded %d questions, %d clauses, %d documents; want 64, 39, 5", len(ds.V2), len(ds.Clauses), len(ds.Documents))
	}
	rep, fs := Audit(withFiles(ds), DefaultOptions())
	got, want := foundAndPlanted(fs, ds)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings through Load differ\n got: %q\nwant: %q", got, want)
	}
	if len(rep.Inputs) != 3 || rep.Inputs[0].SHA256 == "" {
		t.Errorf("report inputs: %+v", rep.Inputs)
	}
}
