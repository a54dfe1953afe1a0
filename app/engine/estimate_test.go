package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"eval752/app/dataset"
)

// EstimateInputs decides with the engine's own test: a qrels file and runs
// of distinct run names get the streaming budget; a repeated run name, a
// run without its qrels or a JSONL file, the in-memory one.
func TestEstimateInputsStreamedOrNot(t *testing.T) {
	qrels := strings.Repeat("q1 0 d1 1\n", 10)       // 100 bytes
	runA := strings.Repeat("q1 Q0 d1 1 1.5 a\n", 20) // 340 bytes
	runB := strings.Repeat("q1 Q0 d1 1 1.5 b\n", 20)
	in := func(name, body string) dataset.Input {
		return dataset.Input{Name: name, R: strings.NewReader(body), Size: int64(len(body))}
	}
	est := func(ins ...dataset.Input) dataset.Estimate {
		t.Helper()
		e, err := EstimateInputs(context.Background(), ins, dataset.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	// two runs a, b: 64 MiB × 1.5 + 100 × (12 + 49 × 2) × 1.5 =
	// 100,663,296 + 16,500 = 100,679,796
	if e := est(in("qrels", qrels), in("a.run", runA), in("b.run", runB)); !e.Streamed || e.Bytes != 100_679_796 {
		t.Errorf("streamed pair: %+v, want streamed, 100679796 bytes", e)
	}
	// the same run name twice: Evaluate merges them in memory, so the
	// in-memory budget (13 per byte): (100 + 340 + 340) × 13 = 10,140
	if e := est(in("qrels", qrels), in("a.run", runA), in("a2.run", runA)); e.Streamed || e.Bytes != 10_140 {
		t.Errorf("repeated run name: %+v, want in memory, 10140 bytes", e)
	}
	// a run alone is not streamed: 340 × 13 = 4,420
	if e := est(in("a.run", runA)); e.Streamed || e.Bytes != 4_420 {
		t.Errorf("run alone: %+v, want in memory, 4420 bytes", e)
	}
	if StreamsTREC([]dataset.Input{in("a.run", runA)}, dataset.Limits{}) {
		t.Error("a run alone streams")
	}
}

// Options.InMemory is called, before reading in memory, when a run the
// streaming path took turns out ungrouped (q1's lines are not contiguous),
// and its error ends the evaluation; a grouped pair never calls it.
func TestInMemoryHook(t *testing.T) {
	qrels := "q1 0 d1 1\nq2 0 d2 1\n"
	ungrouped := "q1 Q0 d1 1 1.5 a\nq2 Q0 d2 1 1.5 a\nq1 Q0 d3 2 1.0 a\n"
	grouped := "q1 Q0 d1 1 1.5 a\nq1 Q0 d3 2 1.0 a\nq2 Q0 d2 1 1.5 a\n"
	in := func(name, body string) dataset.Input {
		return dataset.Input{Name: name, R: strings.NewReader(body), Size: int64(len(body))}
	}
	refuse := errors.New("refused")
	for _, c := range []struct {
		run        string
		wantCalled bool
	}{{ungrouped, true}, {grouped, false}} {
		called := false
		opt := DefaultOptions()
		opt.InMemory = func() error { called = true; return refuse }
		_, err := Evaluate(context.Background(), []dataset.Input{in("qrels", qrels), in("a.run", c.run)}, opt, nil)
		if called != c.wantCalled {
			t.Errorf("run %q: InMemory called %v, want %v", c.run, called, c.wantCalled)
		}
		if c.wantCalled && !errors.Is(err, refuse) {
			t.Errorf("ungrouped: err %v, want the hook's", err)
		}
		if !c.wantCalled && err != nil {
			t.Errorf("grouped: %v", err)
		}
	}
}
