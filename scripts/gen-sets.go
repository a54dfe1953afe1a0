//go:build ignore

// gen-sets writes synthetic benchmark inputs of n records, for the memory,
// audit and pipeline benchmarks in README.md "Benchmarks":
//
//	go run scripts/gen-sets.go -kind items   -n 1000000 -out /tmp/sets/items-1m
//	go run scripts/gen-sets.go -kind b2      -n 1000000 -out /tmp/sets/b2-1m
//	go run scripts/gen-sets.go -kind seed003 -n 100000  -out /tmp/sets/s3-100k
//
// items:   items.jsonl (eval752 items, mcq_single / mcq_multi / freeform, split
//
//	dev or test) and results.jsonl (one run, "r1", answering every item)
//
// items-small: items.jsonl of short freeform items (≈ 85 bytes a line: the
//
//	shape of issue 10's 1M-item, 85 MB measurement), no results
//
// b2:      b2.jsonl (seed 000 b-2 annotation lines) and atoms.jsonl (the
//
//	atoms their gold regions name)
//
// seed003: questions.jsonl, documents.jsonl and chunks.jsonl (seed 003 §10),
//
//	n questions over n/10 documents of 4 chunks each
//
// Texts are random words of a fixed 4,096-word vocabulary (seeded, so the
// files are the same on every run); 0.5 % of the records copy the text of
// an earlier record of the other split, so the audit has leaks to find.
// The output is valid for `eval752 validate` apart from those leaks (and,
// for seed003, the documents' incomplete cloud approval, rag.approval-void).
//
// A seed003 reference answer ends with its question's number ("… (ref
// 0000042)"): two to four words alone occur by chance in some of the
// corpus's n/10 × 4 chunks, and those chance matches (true
// audit.leak-answer-in-corpus findings, each a leak-pairs row) grow as n²
// — 23,807 at 100k questions — so the audit's output, not its work, would
// set the curve. Until 2026-12-02 the answers had no number.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

var syll = []string{"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qui", "dor", "len", "mar", "sen", "tol"}

func vocab(r *rand.Rand) []string {
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

func sentence(r *rand.Rand, words []string, lo, hi int) string {
	n := lo + r.IntN(hi-lo+1)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = words[r.IntN(len(words))]
	}
	return strings.Join(parts, " ")
}

func main() {
	kind := flag.String("kind", "items", "items | items-small | b2 | seed003")
	n := flag.Int("n", 10000, "records")
	out := flag.String("out", "", "output folder (created)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen-sets: -out is required")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r := rand.New(rand.NewPCG(752, uint64(*n)))
	words := vocab(r)
	var err error
	switch *kind {
	case "items":
		err = items(r, words, *n, *out)
	case "items-small":
		err = itemsSmall(r, words, *n, *out)
	case "b2":
		err = b2(r, words, *n, *out)
	case "seed003":
		err = seed003(r, words, *n, *out)
	default:
		err = fmt.Errorf("unknown -kind %q", *kind)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen-sets:", err)
		os.Exit(1)
	}
}

type writer struct {
	f *os.File
	w *bufio.Writer
	e *json.Encoder
}

func create(dir, name string) (*writer, error) {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	return &writer{f, w, e}, nil
}

func (w *writer) put(v any) error { return w.e.Encode(v) }

func (w *writer) close() error {
	if err := w.w.Flush(); err != nil {
		return err
	}
	return w.f.Close()
}

// text returns record i's text: a new sentence, or (0.5 %) the text of an
// earlier record of the other split.
func text(r *rand.Rand, words []string, texts []string, splits []string, i int, lo, hi int) string {
	if i > 10 && r.IntN(200) == 0 {
		for k := 0; k < 8; k++ {
			j := r.IntN(i)
			if splits[j] != splits[i] {
				return texts[j]
			}
		}
	}
	return sentence(r, words, lo, hi)
}

func split(i int) string {
	if i%4 == 3 {
		return "test"
	}
	return "dev"
}

func items(r *rand.Rand, words []string, n int, dir string) error {
	it, err := create(dir, "items.jsonl")
	if err != nil {
		return err
	}
	res, err := create(dir, "results.jsonl")
	if err != nil {
		return err
	}
	texts, splits := make([]string, n), make([]string, n)
	for i := 0; i < n; i++ {
		splits[i] = split(i)
		texts[i] = text(r, words, texts, splits, i, 8, 16)
		id := fmt.Sprintf("it-%07d", i)
		meta := map[string]any{"source": "synthetic", "split": splits[i], "section": fmt.Sprintf("s%02d", i%20), "difficulty": []string{"easy", "medium", "hard"}[i%3]}
		var rec map[string]any
		var resp string
		switch i % 3 {
		case 0:
			ch := []string{sentence(r, words, 1, 3), sentence(r, words, 1, 3), sentence(r, words, 1, 3), sentence(r, words, 1, 3)}
			ans := ch[r.IntN(4)]
			rec = map[string]any{"id": id, "type": "mcq_single", "inputs": map[string]any{"text": texts[i] + "?"}, "choices": ch, "answer": ans, "meta": meta}
			resp = ch[r.IntN(4)]
		case 1:
			ans := sentence(r, words, 2, 5)
			rec = map[string]any{"id": id, "type": "freeform", "inputs": map[string]any{"text": texts[i] + "?"}, "answer": ans, "meta": meta}
			resp = ans
			if r.IntN(2) == 0 {
				resp = sentence(r, words, 2, 5)
			}
		default:
			ch := []string{sentence(r, words, 1, 2), sentence(r, words, 1, 2), sentence(r, words, 1, 2)}
			ans := []string{ch[0], ch[2]}
			rec = map[string]any{"id": id, "type": "mcq_multi", "inputs": map[string]any{"text": texts[i] + "?"}, "choices": ch, "answer": ans, "meta": meta}
			resp = ch[0] + ", " + ch[2]
			if r.IntN(3) == 0 {
				resp = ch[1]
			}
		}
		if err := it.put(rec); err != nil {
			return err
		}
		if err := res.put(map[string]any{"run": "r1", "item_id": id, "response": resp, "latency_ms": 100 + r.IntN(3000), "usage": map[string]any{"input_tokens": 200 + r.IntN(800), "output_tokens": 10 + r.IntN(200)}}); err != nil {
			return err
		}
	}
	if err := it.close(); err != nil {
		return err
	}
	return res.close()
}

func b2(r *rand.Rand, words []string, n int, dir string) error {
	at, err := create(dir, "atoms.jsonl")
	if err != nil {
		return err
	}
	docs := max(1, n/20)
	for d := 0; d < docs; d++ {
		for p := 1; p <= 4; p++ {
			if err := at.put(map[string]any{"atom_id": fmt.Sprintf("doc%06d-p%d-b1", d, p), "source_id": fmt.Sprintf("synth:doc%06d.pdf", d), "page": p, "block": 1}); err != nil {
				return err
			}
		}
	}
	if err := at.close(); err != nil {
		return err
	}
	w, err := create(dir, "b2.jsonl")
	if err != nil {
		return err
	}
	texts, splits := make([]string, n), make([]string, n)
	for i := 0; i < n; i++ {
		d := i % docs
		splits[i] = split(d)
		texts[i] = text(r, words, texts, splits, i, 8, 16)
		rec := map[string]any{
			"query_id":      fmt.Sprintf("synth:doc%06d.pdf:%d", d, i),
			"modality":      "pdf",
			"question":      texts[i] + "?",
			"answer":        sentence(r, words, 1, 4),
			"answer_format": "str",
			"gold":          []any{map[string]any{"source_id": fmt.Sprintf("synth:doc%06d.pdf", d), "region": map[string]any{"page": 1 + r.IntN(4), "block": 1}}},
			"scope":         map[string]any{"holder": "owner", "session": nil, "scenario": "document-qa"},
			"as_of":         "2026-03-01T00:00:00+00:00",
			"unanswerable":  false,
			"origin":        map[string]any{"dataset": "eval752/synthetic", "revision": "0000000", "item": fmt.Sprintf("row:%d", i), "license": "CC0-1.0"},
			"split":         splits[i],
		}
		if err := w.put(rec); err != nil {
			return err
		}
	}
	return w.close()
}

func seed003(r *rand.Rand, words []string, n int, dir string) error {
	docs := max(1, n/10)
	dw, err := create(dir, "documents.jsonl")
	if err != nil {
		return err
	}
	cw, err := create(dir, "chunks.jsonl")
	if err != nil {
		return err
	}
	dtexts, dsplits := make([]string, docs), make([]string, docs)
	for d := 0; d < docs; d++ {
		dsplits[d] = split(d)
		var chunks []string
		for c := 0; c < 4; c++ {
			chunks = append(chunks, sentence(r, words, 20, 40)+".")
		}
		dtexts[d] = strings.Join(chunks, " ")
		id := fmt.Sprintf("doc_%06d", d)
		if err := dw.put(map[string]any{"doc_id": id, "title": sentence(r, words, 3, 6), "source_version": "v1", "document_version_id": "docver_" + id, "license_id": "CC0-1.0", "redistribution_allowed": true, "confidentiality": "public", "security_review": "passed", "review_state": "CLOUD_APPROVED", "searchable": true, "split": dsplits[d], "text": dtexts[d], "char_count": len([]rune(dtexts[d])), "page_count": 1, "language": "en"}); err != nil {
			return err
		}
		off := 0
		for c, t := range chunks {
			l := len([]rune(t))
			if err := cw.put(map[string]any{"chunk_id": fmt.Sprintf("chk_%06d_%d", d, c), "doc_id": id, "document_version_id": "docver_" + id, "page_no": 1, "char_start": off, "char_end": off + l, "text": t, "searchable": true}); err != nil {
				return err
			}
			off += l + 1
		}
	}
	if err := dw.close(); err != nil {
		return err
	}
	if err := cw.close(); err != nil {
		return err
	}
	qw, err := create(dir, "questions.jsonl")
	if err != nil {
		return err
	}
	texts, splits := make([]string, n), make([]string, n)
	for i := 0; i < n; i++ {
		d := i % docs
		splits[i] = dsplits[d]
		texts[i] = text(r, words, texts, splits, i, 8, 16)
		if err := qw.put(map[string]any{"qid": fmt.Sprintf("q_%s_%07d", splits[i], i), "query": texts[i] + "?", "answerable": true, "reference_answer": fmt.Sprintf("%s (ref %07d)", sentence(r, words, 2, 4), i), "question_type": "direct_fact", "difficulty": "easy", "modality": "text",
			"gold_evidence_groups": []any{map[string]any{"required": true, "group_id": "g1", "doc_id": fmt.Sprintf("doc_%06d", d), "document_version_id": fmt.Sprintf("docver_doc_%06d", d), "page_no": 1}},
			"split":                splits[i], "security_classification": "public", "redistribution_allowed": true, "created_by": "human_written", "review_status": "double_reviewed", "hops": "single"}); err != nil {
			return err
		}
	}
	return qw.close()
}

func itemsSmall(r *rand.Rand, words []string, n int, dir string) error {
	it, err := create(dir, "items.jsonl")
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if err := it.put(map[string]any{"id": fmt.Sprintf("q%07d", i), "type": "freeform", "inputs": map[string]any{"text": sentence(r, words, 3, 4) + "?"}, "answer": words[r.IntN(len(words))]}); err != nil {
			return err
		}
	}
	return it.close()
}
