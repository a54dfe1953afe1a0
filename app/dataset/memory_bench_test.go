package dataset

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
)

// The memory kept per record after Load (docs/formats.md "Memory budget"):
// each benchmark loads n generated records and reports the heap still in
// use once the Dataset is built (after a GC, the Dataset alive) per record,
// as "B/item", beside the input's bytes per record. Run:
//
//	go test -run '^$' -bench Memory -benchtime 3x ./app/dataset/

func benchKept(b *testing.B, name string, data []byte, n int) {
	b.SetBytes(int64(len(data)))
	var kept float64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ds, err := Load(context.Background(), []Input{{Name: name, R: bytes.NewReader(data), Size: int64(len(data))}}, Options{Limits: DefaultLimits()})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = float64(after.HeapAlloc) - float64(before.HeapAlloc)
		runtime.KeepAlive(ds)
	}
	b.ReportMetric(kept/float64(n), "B/item")
	b.ReportMetric(float64(len(data))/float64(n), "input-B/item")
}

const memN = 20_000

func BenchmarkMemoryItems(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN; i++ {
		fmt.Fprintf(&buf, `{"id":"it-%07d","type":"mcq_single","inputs":{"text":"Which of these rated values is printed on label number %d of the kettle?"},"choices":["1500 W","1800 W","2000 W","2200 W"],"answer":"1800 W","meta":{"source":"synthetic","difficulty":"easy","section":"s%02d","split":"%s"}}`+"\n",
			i, i, i%20, []string{"dev", "test"}[i%2])
	}
	benchKept(b, "items.jsonl", buf.Bytes(), memN)
}

func BenchmarkMemoryB2(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN; i++ {
		fmt.Fprintf(&buf, `{"query_id":"synth:doc%06d.pdf:%d","modality":"pdf","question":"What rated power is printed on specification page %d?","answer":"1800 W","answer_format":"str","gold":[{"source_id":"synth:doc%06d.pdf","region":{"page":%d,"block":1}}],"scope":{"holder":"owner","session":null,"scenario":"document-qa"},"as_of":"2026-03-01T00:00:00+00:00","unanswerable":false,"origin":{"dataset":"eval752/synthetic","revision":"0000000","item":"row:%d","license":"CC0-1.0"},"split":"%s"}`+"\n",
			i/20, i, i, i/20, 1+i%4, i, []string{"dev", "test"}[i%2])
	}
	benchKept(b, "b2.jsonl", buf.Bytes(), memN)
}

func BenchmarkMemoryTREC(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN*5; i++ {
		fmt.Fprintf(&buf, "q%04d Q0 doc-%07d %d %.4f bm25\n", i/100, i*7919%1000003, i%100+1, 100-float64(i%100)*0.37)
	}
	benchKept(b, "run.trec", buf.Bytes(), memN*5)
}
