package audit

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"eval752/app/dataset"
)

// The audit's cost curve (README "Benchmarks"): b-2 annotation lines and
// seed-003 questions + documents + chunks of n records, generated here in
// the shape of scripts/gen-sets.go (random words of a 4,096-word vocabulary;
// 0.5 % of the texts copy an earlier text of the other split), loaded through
// dataset.Load and audited. Run:
//
//	go test -run '^$' -bench 'Audit(B2|Seed003)' -benchtime 1x ./app/audit/
//
// The time per op should grow about 10× from one size to the next.
// -audit.sizes chooses the sizes (e.g. -audit.sizes 100000,300000 to profile
// the step that matters; 1M records take minutes and several GiB).

var auditSizes = flag.String("audit.sizes", "10000,100000", "comma-separated record counts for BenchmarkAudit*")

func benchWords(r *rand.Rand) []string {
	syll := []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qui", "dor", "len", "mar", "sen", "tol"}
	seen := map[string]bool{}
	var out []string
	for len(out) < 4096 {
		var b strings.Builder
		for k := 2 + r.IntN(3); k > 0; k-- {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func benchSentence(r *rand.Rand, words []string, lo, hi int) string {
	parts := make([]string, lo+r.IntN(hi-lo+1))
	for i := range parts {
		parts[i] = words[r.IntN(len(words))]
	}
	return strings.Join(parts, " ")
}

// benchTexts gives n texts and their splits (every fourth group "test"):
// new sentences, 0.5 % copies of an earlier text of the other split.
func benchTexts(r *rand.Rand, words []string, n, group int) (texts, splits []string) {
	texts, splits = make([]string, n), make([]string, n)
	for i := range texts {
		splits[i] = "dev"
		if (i%group)%4 == 3 {
			splits[i] = "test"
		}
		texts[i] = benchSentence(r, words, 8, 16)
		if i > 10 && r.IntN(200) == 0 {
			for k := 0; k < 8; k++ {
				if j := r.IntN(i); splits[j] != splits[i] {
					texts[i] = texts[j]
					break
				}
			}
		}
	}
	return texts, splits
}

func benchLoad(b *testing.B, files map[string]*bytes.Buffer) *dataset.Dataset {
	var inputs []dataset.Input
	for _, name := range []string{"atoms.jsonl", "b2.jsonl", "documents.jsonl", "chunks.jsonl", "questions.jsonl"} {
		if buf, ok := files[name]; ok {
			inputs = append(inputs, dataset.Input{Name: name, R: bytes.NewReader(buf.Bytes()), Size: int64(buf.Len())})
		}
	}
	ds, err := dataset.Load(context.Background(), inputs, dataset.Options{Limits: dataset.DefaultLimits()})
	if err != nil {
		b.Fatal(err)
	}
	return ds
}

func b2BenchSet(b *testing.B, n int) *dataset.Dataset {
	r := rand.New(rand.NewPCG(752, uint64(n)))
	words := benchWords(r)
	docs := max(1, n/20)
	atoms, lines := &bytes.Buffer{}, &bytes.Buffer{}
	for d := 0; d < docs; d++ {
		for p := 1; p <= 4; p++ {
			fmt.Fprintf(atoms, `{"atom_id":"doc%06d-p%d-b1","source_id":"synth:doc%06d.pdf","page":%d,"block":1}`+"\n", d, p, d, p)
		}
	}
	texts, splits := benchTexts(r, words, n, docs)
	for i, t := range texts {
		d := i % docs
		fmt.Fprintf(lines, `{"query_id":"synth:doc%06d.pdf:%d","modality":"pdf","question":"%s?","answer":"%s","answer_format":"str","gold":[{"source_id":"synth:doc%06d.pdf","region":{"page":%d,"block":1}}],"scope":{"holder":"owner","session":null,"scenario":"document-qa"},"as_of":"2026-03-01T00:00:00+00:00","unanswerable":false,"origin":{"dataset":"eval752/synthetic","revision":"0000000","item":"row:%d","license":"CC0-1.0"},"split":"%s"}`+"\n",
			d, i, t, benchSentence(r, words, 1, 4), d, 1+r.IntN(4), i, splits[i])
	}
	return benchLoad(b, map[string]*bytes.Buffer{"atoms.jsonl": atoms, "b2.jsonl": lines})
}

func seed003BenchSet(b *testing.B, n int) *dataset.Dataset {
	r := rand.New(rand.NewPCG(752, uint64(n)))
	words := benchWords(r)
	docs := max(1, n/10)
	dw, cw, qw := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	dsplit := make([]string, docs)
	for d := 0; d < docs; d++ {
		dsplit[d] = "dev"
		if d%4 == 3 {
			dsplit[d] = "test"
		}
		var chunks []string
		for c := 0; c < 4; c++ {
			chunks = append(chunks, benchSentence(r, words, 20, 40)+".")
		}
		text := strings.Join(chunks, " ")
		fmt.Fprintf(dw, `{"doc_id":"doc_%06d","title":"%s","source_version":"v1","document_version_id":"docver_doc_%06d","license_id":"CC0-1.0","redistribution_allowed":true,"confidentiality":"public","security_review":"passed","review_state":"CLOUD_APPROVED","searchable":true,"split":"%s","text":"%s","char_count":%d,"page_count":1,"language":"en"}`+"\n",
			d, benchSentence(r, words, 3, 6), d, dsplit[d], text, len([]rune(text)))
		off := 0
		for c, t := range chunks {
			fmt.Fprintf(cw, `{"chunk_id":"chk_%06d_%d","doc_id":"doc_%06d","document_version_id":"docver_doc_%06d","page_no":1,"char_start":%d,"char_end":%d,"text":"%s","searchable":true}`+"\n",
				d, c, d, d, off, off+len([]rune(t)), t)
			off += len([]rune(t)) + 1
		}
	}
	texts, _ := benchTexts(r, words, n, docs)
	for i, t := range texts {
		d := i % docs
		fmt.Fprintf(qw, `{"qid":"q_%s_%07d","query":"%s?","answerable":true,"reference_answer":"%s (ref %07d)","question_type":"direct_fact","difficulty":"easy","modality":"text","gold_evidence_groups":[{"required":true,"group_id":"g1","doc_id":"doc_%06d","document_version_id":"docver_doc_%06d","page_no":1}],"split":"%s","security_classification":"public","redistribution_allowed":true,"created_by":"human_written","review_status":"double_reviewed","hops":"single"}`+"\n",
			dsplit[d], i, t, benchSentence(r, words, 2, 4), i, d, d, dsplit[d])
	}
	return benchLoad(b, map[string]*bytes.Buffer{"documents.jsonl": dw, "chunks.jsonl": cw, "questions.jsonl": qw})
}

func benchAudit(b *testing.B, set func(*testing.B, int) *dataset.Dataset) {
	for _, f := range strings.Split(*auditSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("-audit.sizes: %q is not a positive count", f)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ds := set(b, n)
			opt := DefaultOptions()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rep, _ := Audit(withFiles(ds), opt)
				if rep == nil {
					b.Fatal("no report")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/record")
		})
	}
}

func BenchmarkAuditB2(b *testing.B)      { benchAudit(b, b2BenchSet) }
func BenchmarkAuditSeed003(b *testing.B) { benchAudit(b, seed003BenchSet) }

var auditDir = flag.String("audit.dir", "", "folder of JSONL files for BenchmarkAuditDir (e.g. one written by scripts/gen-sets.go)")

// BenchmarkAuditDir loads every .jsonl file of -audit.dir and audits it, as
// `eval752 audit DIR` does after validation (SplitIsolation, then Audit,
// which takes its pairs): the profile of a real set without the CLI.
//
//	go test -run '^$' -bench AuditDir -benchtime 1x -audit.dir /tmp/s3-300k -cpuprofile cpu.out ./app/audit/
func BenchmarkAuditDir(b *testing.B) {
	if *auditDir == "" {
		b.Skip("no -audit.dir")
	}
	ents, err := os.ReadDir(*auditDir)
	if err != nil {
		b.Fatal(err)
	}
	var inputs []dataset.Input
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		f, err := os.Open(filepath.Join(*auditDir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, dataset.Input{Name: e.Name(), R: f, Size: st.Size()})
	}
	for i := 0; i < b.N; i++ {
		ds, err := dataset.Load(context.Background(), inputs, dataset.Options{Limits: dataset.DefaultLimits()})
		if err != nil {
			b.Fatal(err)
		}
		opt := DefaultOptions()
		SplitIsolation(withFiles(ds), opt)
		if rep, _ := Audit(withFiles(ds), opt); rep == nil {
			b.Fatal("no report")
		}
	}
}

// BenchmarkSplitIsolationB2 times the split-isolation gates alone (the
// cross-split near-copy search of validate) on the b-2 sets of
// BenchmarkAuditB2, -audit.sizes as there; B/op is their allocation.
//
//	go test -run '^$' -bench SplitIsolationB2 -benchmem -benchtime 1x ./app/audit/
func BenchmarkSplitIsolationB2(b *testing.B) {
	for _, f := range strings.Split(*auditSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("-audit.sizes: %q is not a positive count", f)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ds := b2BenchSet(b, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				SplitIsolation(ds, DefaultOptions())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/record")
		})
	}
}
