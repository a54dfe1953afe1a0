package dataset

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
)

// The memory kept per record after Load (docs/formats.md "Memory budget"):
// each benchmark loads n generated records of one format and reports the
// heap still in use once the Dataset is built (after a GC, the Dataset
// alive) per record, as "B/item", beside the input's bytes per record
// ("input-B/item"). A benchmark fails when a record keeps more than the
// budget docs/formats.md writes for its format (memBudget), so the budget
// is held, not only printed. Run:
//
//	go test -run '^$' -bench Memory -benchtime 2x ./app/dataset/

// memBudget is docs/formats.md's budget, bytes kept per record, by
// benchmark. Keep the two in step.
var memBudget = map[string]float64{
	"Items":         472, // eval752 item with choices and meta (measured 398)
	"ItemsSmall":    312, // issue 10's ≈ 100-byte freeform item (270)
	"Results":       332, // results.jsonl line with response, latency, usage (292)
	"B2":            512, // (458–459)
	"RAGQuestions":  712, // seed-003 question with one evidence group (638)
	"RAGChunks":     562, // seed-003 chunk of ≈ 250 bytes of text (477)
	"TREC":          110, // one run line (100)
	"Qrels":         95,  // one qrels line (82)
	"LMEvalSamples": 840, // lm-eval sample line (760)
}

func benchKept(b *testing.B, name string, data []byte, n int) {
	b.Helper()
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
		if len(ds.Findings) > 0 {
			b.Fatalf("the generated %s is not clean: %v", name, ds.Findings[0])
		}
		runtime.KeepAlive(ds)
	}
	per := kept / float64(n)
	b.ReportMetric(per, "B/item")
	b.ReportMetric(float64(len(data))/float64(n), "input-B/item")
	bench := b.Name()[len("BenchmarkMemory"):]
	for i := len(bench) - 1; i >= 0; i-- { // drop the -GOMAXPROCS suffix
		if bench[i] == '-' {
			bench = bench[:i]
			break
		}
	}
	if budget, ok := memBudget[bench]; !ok {
		b.Fatalf("no budget for %s in memBudget", bench)
	} else if per > budget {
		b.Errorf("%s keeps %.0f B a record, over its budget of %.0f (docs/formats.md \"Memory budget\")", bench, per, budget)
	}
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

// ItemsSmall is scripts/gen-sets.go -kind items-small's shape (issue 10's
// 1M-item set): a freeform question without choices or meta.
func BenchmarkMemoryItemsSmall(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN; i++ {
		fmt.Fprintf(&buf, `{"answer":"tiquisentol%d","id":"q%07d","inputs":{"text":"mitiquisa mardortolsa dormarlen number %d?"},"type":"freeform"}`+"\n", i%97, i, i)
	}
	benchKept(b, "items.jsonl", buf.Bytes(), memN)
}

func BenchmarkMemoryResults(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN; i++ {
		fmt.Fprintf(&buf, `{"item_id":"it-%07d","latency_ms":%d,"response":"zesaquidor kadortimar %d","run":"r1","usage":{"input_tokens":%d,"output_tokens":%d}}`+"\n",
			i, 1000+i%2000, i%50, 500+i%300, 20+i%120)
	}
	benchKept(b, "results.jsonl", buf.Bytes(), memN)
}

func BenchmarkMemoryB2(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN; i++ {
		fmt.Fprintf(&buf, `{"query_id":"synth:doc%06d.pdf:%d","modality":"pdf","question":"What rated power is printed on specification page %d?","answer":"1800 W","answer_format":"str","gold":[{"source_id":"synth:doc%06d.pdf","region":{"page":%d,"block":1}}],"scope":{"holder":"owner","session":null,"scenario":"document-qa"},"as_of":"2026-03-01T00:00:00+00:00","unanswerable":false,"origin":{"dataset":"eval752/synthetic","revision":"0000000","item":"row:%d","license":"CC0-1.0"},"split":"%s"}`+"\n",
			i/20, i, i, i/20, 1+i%4, i, []string{"dev", "test"}[i%2])
	}
	benchKept(b, "b2.jsonl", buf.Bytes(), memN)
}

// RAGQuestions and RAGChunks are scripts/gen-sets.go -kind seed003's
// questions.jsonl and chunks.jsonl lines.
func BenchmarkMemoryRAGQuestions(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN; i++ {
		fmt.Fprintf(&buf, `{"answerable":true,"created_by":"human_written","difficulty":"easy","gold_evidence_groups":[{"doc_id":"doc_%06d","document_version_id":"docver_doc_%06d","group_id":"g1","page_no":1,"required":true}],"hops":"single","modality":"text","qid":"q_dev_%07d","query":"nesador zevokaru lenneru katimisen dormartolti tiru satidor number %d?","question_type":"direct_fact","redistribution_allowed":true,"reference_answer":"quineloqui dortiti %d","review_status":"double_reviewed","security_classification":"public","split":"dev"}`+"\n",
			i/10, i/10, i, i, i%31)
	}
	benchKept(b, "questions.jsonl", buf.Bytes(), memN)
}

func BenchmarkMemoryRAGChunks(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN; i++ {
		fmt.Fprintf(&buf, `{"char_end":331,"char_start":0,"chunk_id":"chk_%06d_%d","doc_id":"doc_%06d","document_version_id":"docver_doc_%06d","page_no":1,"searchable":true,"text":"rulopa nesenpa lenpalentol zezelendor senmisami marsaquimi quisaka tolnelenka kazene sazelodor zedorti zequimiti quitiru marlodormi zelen dorsane ruquiquiqui zetolquitol number %d."}`+"\n",
			i/4, i%4, i/4, i/4, i)
	}
	benchKept(b, "chunks.jsonl", buf.Bytes(), memN)
}

func BenchmarkMemoryTREC(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN*5; i++ {
		fmt.Fprintf(&buf, "q%04d Q0 doc-%07d %d %.4f bm25\n", i/100, i*7919%1000003, i%100+1, 100-float64(i%100)*0.37)
	}
	benchKept(b, "run.trec", buf.Bytes(), memN*5)
}

func BenchmarkMemoryQrels(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN*5; i++ {
		fmt.Fprintf(&buf, "q%04d 0 doc-%07d %d\n", i/50, i*7919%1000003, i%3)
	}
	benchKept(b, "qrels.txt", buf.Bytes(), memN*5)
}

// LMEvalSamples is an lm-evaluation-harness samples_<task>_<stamp>.jsonl
// (--log_samples), a peer format that goes through Load line by line.
func BenchmarkMemoryLMEvalSamples(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < memN; i++ {
		fmt.Fprintf(&buf, `{"doc_id": %d, "doc": {"question": "What is the capital of country %d?", "answer": "City %d"}, "target": "City %d", "arguments": [["Question: What is the capital of country %d?\nAnswer:", " City %d"]], "resps": [[["-1.5", "True"]]], "filtered_resps": [["-1.5", "True"]], "doc_hash": "%064x", "prompt_hash": "%064x", "target_hash": "%064x", "acc": %d.0}`+"\n",
			i, i, i, i, i, i, i, i+1, i+2, i%2)
	}
	benchKept(b, "samples_capitals_2025-01-01T00-00-00.000001.jsonl", buf.Bytes(), memN)
}
