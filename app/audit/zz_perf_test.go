package audit

import (
	"math/rand"
	"strconv"
	"testing"
	"time"

	"eval752/app/dataset"
	"eval752/app/model"
)

func TestPerfTmp(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	words := []rune("安全生产经营单位应当建立健全责任制度从业人员培训教育事故隐患排查治理应急救援预案演练受限空间作业检测通风监护罚款万元以上以下")
	gen := func(n int) string {
		b := make([]rune, n)
		for i := range b {
			b[i] = words[r.Intn(len(words))]
		}
		return string(b)
	}
	ds := &dataset.Dataset{}
	for i := 0; i < 5000; i++ {
		ds.Chunks = append(ds.Chunks, dataset.Rec[model.RAGChunk]{Typed: true, Loc: dataset.Loc{Path: "c", Line: i + 1}, V: model.RAGChunk{ChunkID: "c" + strconv.Itoa(i), DocID: "d" + strconv.Itoa(i/10), Text: gen(300)}})
	}
	for i := 0; i < 500; i++ {
		ds.Documents = append(ds.Documents, dataset.Rec[model.RAGDocument]{Typed: true, V: model.RAGDocument{DocID: "d" + strconv.Itoa(i), Split: []string{"train", "dev", "test"}[i%3], Text: str(gen(1500))}})
	}
	for i := 0; i < 1000; i++ {
		ds.RAG = append(ds.RAG, dataset.Rec[model.RAGQuestion]{Typed: true, Loc: dataset.Loc{Path: "q", Line: i + 1}, V: model.RAGQuestion{QID: "q" + strconv.Itoa(i), Query: gen(25), Answerable: i%5 != 0, ReferenceAnswer: str(gen(20)), Split: []string{"dev", "test"}[i%2]}})
	}
	opt := DefaultOptions().withDefaults()
	qs := queries(ds)
	ps := corpusPassages(ds)
	t0 := time.Now()
	refusalAudit(ds, qs, ps, opt)
	t.Logf("refusal %v", time.Since(t0))
	t0 = time.Now()
	leakage(ds, qs, ps, opt)
	t.Logf("leakage %v", time.Since(t0))
}
