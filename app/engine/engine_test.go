package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"eval752/app/dataset"
	"eval752/app/demo"
	"eval752/app/finding"
)

func demoInput(t *testing.T, bad bool) []dataset.Input {
	t.Helper()
	var buf bytes.Buffer
	build := demo.Build
	if bad {
		build = demo.BuildBad
	}
	if err := build(&buf); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	return []dataset.Input{{Name: "demo.eval752.zip", R: bytes.NewReader(b), Size: int64(len(b))}}
}

// The demo bundle is the page's one-click example: it must validate with no
// error and yield scores for its two runs, their paired comparison and an audit.
func TestEvaluateDemo(t *testing.T) {
	res, err := Evaluate(context.Background(), demoInput(t, false), DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Counts.Error != 0 {
		for _, f := range res.Findings {
			if f.Severity == finding.Error {
				t.Errorf("%s", f)
			}
		}
		t.Fatalf("demo has %d errors", res.Counts.Error)
	}
	if res.Score == nil || res.Compare == nil || res.Audit == nil || res.Overview == nil {
		t.Fatalf("missing report: score %v compare %v audit %v overview %v", res.Score != nil, res.Compare != nil, res.Audit != nil, res.Overview != nil)
	}
	if len(res.Runs) < 2 {
		t.Fatalf("runs = %v, want the demo's two runs", res.Runs)
	}
	if len(res.Score.Inputs) == 0 || res.Score.Inputs[0].SHA256 == "" {
		t.Fatal("score report does not cite its inputs' sha256")
	}
}

// Same inputs and seed give byte-identical results (STYLE.md rule 6).
func TestEvaluateDeterministic(t *testing.T) {
	var out [2][]byte
	for i := range out {
		res, err := Evaluate(context.Background(), demoInput(t, false), DefaultOptions(), nil)
		if err != nil {
			t.Fatal(err)
		}
		out[i], err = json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Fatal("two evaluations of the same input differ")
	}
}

// The page counts what `validate` counts: Evaluate's findings are exactly
// Validate's, and the mixed-bad bundle has errors.
func TestEvaluateMatchesValidate(t *testing.T) {
	ctx := context.Background()
	v, err := Validate(ctx, demoInput(t, true), DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := v.Findings
	res, err := Evaluate(ctx, demoInput(t, true), DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(want)
	b, _ := json.Marshal(res.Findings)
	if !bytes.Equal(a, b) {
		t.Fatal("Evaluate findings differ from Validate findings")
	}
	if res.Counts.Error == 0 {
		t.Fatal("the mixed-bad bundle produced no error")
	}
}

func TestEvaluateCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Evaluate(ctx, demoInput(t, false), DefaultOptions(), nil); err == nil {
		t.Fatal("a cancelled evaluation returned no error")
	}
}
