package itemscore

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"

	"eval752/app/dataset"
)

// The memory a scored Set keeps per unit (docs/formats.md "Memory
// budget"): BenchmarkMemoryScore loads memN eval752 items of
// scripts/gen-sets.go -kind items's shape (single- and multi-choice and
// freeform questions with meta) and one run's results.jsonl line each
// (response, latency, usage), scores them as `eval752 score` does
// (DropRecords, the dataset dropped once the Set is built) and reports the
// heap still in use with the Set alone alive, after a GC, per unit, as
// "B/item" — the strings the Set shares with the records included. It
// fails over memBudget. Run:
//
//	go test -run '^$' -bench MemoryScore -benchtime 2x ./app/itemscore/

// memBudget is docs/formats.md's budget, bytes a scored Set keeps per
// unit (one run). Keep the two in step.
const memBudget = 930 // measured 842–846 (942 before the Detail kept only the answer; main before issue 10 item 2: 1323, a map per item's values and usage)

const memN = 20_000

func memInputs() []dataset.Input {
	var items, results bytes.Buffer
	for i := 0; i < memN; i++ {
		split := []string{"dev", "test"}[i%2]
		diff := []string{"easy", "medium", "hard"}[i%3]
		switch i % 3 {
		case 0:
			fmt.Fprintf(&items, `{"answer":"nepaqui palensenqui","choices":["dorsane ruquiquiqui","nepaqui palensenqui","tirupapa palovodor","dorruze %d"],"id":"it-%07d","inputs":{"text":"rulopa nesenpa lenpalentol zezelendor senmisami marsaquimi quisaka tolnelenka kazene number %d?"},"meta":{"difficulty":"%s","section":"s%02d","source":"synthetic","split":"%s"},"type":"mcq_single"}`+"\n", i, i, i, diff, i%20, split)
			fmt.Fprintf(&results, `{"item_id":"it-%07d","latency_ms":%d,"response":"nepaqui palensenqui","run":"r1","usage":{"input_tokens":%d,"output_tokens":%d}}`+"\n", i, 300+i%3000, 400+i%600, 50+i%150)
		case 1:
			fmt.Fprintf(&items, `{"answer":"sensadorne marzequivo %d","id":"it-%07d","inputs":{"text":"kadorvotol mivotitol martolqui senrusenlen lenlennesen tidortiru lenrusane number %d?"},"meta":{"difficulty":"%s","section":"s%02d","source":"synthetic","split":"%s"},"type":"freeform"}`+"\n", i%97, i, i, diff, i%20, split)
			fmt.Fprintf(&results, `{"item_id":"it-%07d","latency_ms":%d,"response":"senrutiti lotoldordor tolquimi %d","run":"r1","usage":{"input_tokens":%d,"output_tokens":%d}}`+"\n", i, 300+i%3000, i%97, 400+i%600, 50+i%150)
		default:
			fmt.Fprintf(&items, `{"answer":["dortinetol quirupaze","mivoru paquiquize"],"choices":["dortinetol quirupaze","minesati %d","mivoru paquiquize"],"id":"it-%07d","inputs":{"text":"miquiti senvodorne marnemisen milopa vomartolqui tisa ruvoru number %d?"},"meta":{"difficulty":"%s","section":"s%02d","source":"synthetic","split":"%s"},"type":"mcq_multi"}`+"\n", i, i, i, diff, i%20, split)
			fmt.Fprintf(&results, `{"item_id":"it-%07d","latency_ms":%d,"response":"minesati %d","run":"r1","usage":{"input_tokens":%d,"output_tokens":%d}}`+"\n", i, 300+i%3000, i, 400+i%600, 50+i%150)
		}
	}
	return []dataset.Input{
		{Name: "items.jsonl", R: bytes.NewReader(items.Bytes()), Size: int64(items.Len())},
		{Name: "results.jsonl", R: bytes.NewReader(results.Bytes()), Size: int64(results.Len())},
	}
}

func BenchmarkMemoryScore(b *testing.B) {
	var kept float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		in := memInputs()
		b.StartTimer()
		ds, err := dataset.Load(context.Background(), in, dataset.Options{Limits: dataset.DefaultLimits()})
		if err != nil {
			b.Fatal(err)
		}
		if len(ds.Findings) > 0 {
			b.Fatalf("the generated set is not clean: %v", ds.Findings[0])
		}
		opt := DefaultOptions()
		opt.DropRecords = true
		set, err := Score(ds, opt)
		if err != nil {
			b.Fatal(err)
		}
		ds = nil
		b.StopTimer()
		in = nil
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = float64(after.HeapAlloc) - float64(before.HeapAlloc)
		if len(set.Units) != memN || len(set.Runs) != 1 || set.Runs[0].Items[memN-1].Missing {
			b.Fatalf("scored %d units, %d runs", len(set.Units), len(set.Runs))
		}
		runtime.KeepAlive(set)
		b.StartTimer()
	}
	per := kept / memN
	b.ReportMetric(per, "B/item")
	if per > memBudget {
		b.Errorf("a scored unit keeps %.0f B, over its budget of %d (docs/formats.md \"Memory budget\")", per, memBudget)
	}
}
