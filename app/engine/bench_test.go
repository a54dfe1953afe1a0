package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"eval752/app/audit"
	"eval752/app/dataset"
	"eval752/app/demo"
	"eval752/app/engine"
	"eval752/app/itemscore"
	"eval752/app/score"
	"eval752/app/stats"
)

// demoBytes is the demo bundle, built in memory (the page's one-click
// example: 150 units, 2 runs).
func demoBytes(b *testing.B) []byte {
	b.Helper()
	var buf bytes.Buffer
	if err := demo.Build(&buf); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func demoInputs(data []byte) []dataset.Input {
	return []dataset.Input{{Name: "demo.eval752.zip", R: bytes.NewReader(data), Size: int64(len(data))}}
}

// BenchmarkEvaluateDemo is what the page's worker runs on the demo bundle:
// engine.Evaluate with the defaults (1000-resample bootstrap CIs, the paired
// comparison of the two runs, the audit), then the result encoded as JSON as
// it crosses to the UI (the reports one by one).
//
//	go test -run '^$' -bench EvaluateDemo -benchmem -count 5 ./app/engine/
func BenchmarkEvaluateDemo(b *testing.B) {
	data := demoBytes(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := engine.Evaluate(context.Background(), demoInputs(data), engine.DefaultOptions(), nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Score == nil || res.Compare == nil || res.Audit == nil {
			b.Fatal("the demo bundle gave no score, comparison or audit")
		}
	}
}

// BenchmarkEvaluateDemoPhases times each phase of engine.Evaluate on the
// demo bundle on its own (load + validate, per-item scoring, the score
// report, the paired comparison, the audit, the reports encoded as JSON), to
// show where the worker's time goes. GOMAXPROCS=1 is closest to the page's
// worker (WebAssembly runs one thread).
//
//	go test -run '^$' -bench EvaluateDemoPhases -benchmem ./app/engine/
func BenchmarkEvaluateDemoPhases(b *testing.B) {
	data := demoBytes(b)
	opt := engine.DefaultOptions()
	ctx := context.Background()
	// the records itemscore scores (engine.Validate keeps them inside)
	ds, err := dataset.Load(ctx, demoInputs(data), opt.Load)
	if err != nil {
		b.Fatal(err)
	}
	set, err := itemscore.Score(ds, opt.Items)
	if err != nil {
		b.Fatal(err)
	}
	if len(set.Runs) < 2 {
		b.Fatalf("the demo bundle has %d runs, want 2", len(set.Runs))
	}
	runA, runB := set.Runs[0].Run, set.Runs[1].Run
	res, err := engine.Evaluate(ctx, demoInputs(data), opt, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := engine.Validate(ctx, demoInputs(data), opt, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("itemscore", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := itemscore.Score(ds, opt.Items); err != nil {
				b.Fatal(err)
			}
		}
	})
	// score and compare start from an empty memo of intervals each time
	// (Evaluate runs the comparison after the score report, with the
	// report's intervals remembered: see the whole in BenchmarkEvaluateDemo)
	b.Run("score", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			set.CIs = &stats.Memo{}
			score.Score(set, opt.Score)
		}
	})
	b.Run("compare", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			set.CIs = &stats.Memo{}
			if _, err := score.Compare(set, runA, runB, opt.Score); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("audit", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			audit.Audit(ds, opt.Audit)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, r := range []any{res.Overview, res.Score, res.Compare, res.Audit} {
				if _, err := json.Marshal(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
