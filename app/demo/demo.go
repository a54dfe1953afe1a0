// Package demo builds eval752's demo bundle, demo.eval752.zip: a made-up,
// safe-to-publish product-safety / document-QA benchmark that carries every
// format eval752 reads (seed 004 items of all five types with real PNG
// assets, a b-2 annotation set with its corpus manifest, source registry and
// atom table, a seed-002 style v2 set with its clause index, a seed-003 RAG
// set with documents, pages, chunks and anchored judgments) and the results
// of two runs, so the page's one-click demo, the score/compare commands and
// the browser tests all have something true to show.
//
// Hand-written content lives in the embedded tree bundle/ (the eval752 items,
// the clause index, the checkers); everything that must agree with something
// else — v2 answers copied from clauses, seed-003 offsets and evidence
// hashes, chunk tables, rankings, the manifest's sha256 list and meta.json's
// version_hash — is computed here at build time, never typed by hand.
//
// Build writes the same bytes every time: entries sorted by name, one fixed
// modification time, Deflate at a fixed level, JSON with sorted map keys.
package demo

import (
	"archive/zip"
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"time"

	"eval752/app/dataset"
	"eval752/app/model"
)

//go:embed bundle
var tree embed.FS

// FileName is the demo's file name as the page offers it.
const FileName = "demo.eval752.zip"

// ModTime is every entry's modification time (fixed, so builds are identical).
var ModTime = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// Build writes the demo bundle to w.
func Build(w io.Writer) error {
	files, err := Files()
	if err != nil {
		return err
	}
	return writeZip(w, files)
}

// Files returns the demo bundle's entries (name → bytes), manifest.json and
// meta.json included. Tests and BuildBad start from it.
func Files() (map[string][]byte, error) {
	files, _, err := build()
	return files, err
}

// build returns the entries and the format each JSONL/JSON entry is listed
// with in manifest.json.
func build() (map[string][]byte, map[string]model.Format, error) {
	files := map[string][]byte{}
	formats := map[string]model.Format{}
	err := fs.WalkDir(tree, "bundle", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := tree.ReadFile(p)
		if err != nil {
			return err
		}
		files[strings.TrimPrefix(p, "bundle/")] = b
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	formats["sections/general.jsonl"] = model.FormatItem
	formats["corpus/clauses.jsonl"] = model.FormatClause

	add := func(name string, f model.Format, recs any) error {
		b, err := encodeJSONL(recs)
		if err != nil {
			return fmt.Errorf("demo: %s: %w", name, err)
		}
		files[name], formats[name] = b, f
		return nil
	}
	files["assets/recalls-by-category.png"] = recallChartPNG()
	files["assets/plug-label.png"] = plugLabelPNG()

	// eval752 items
	items, err := decodeJSONL[model.Item](files["sections/general.jsonl"])
	if err != nil {
		return nil, nil, fmt.Errorf("demo: sections/general.jsonl: %w", err)
	}

	// v2
	clauses, err := decodeJSONL[model.Clause](files["corpus/clauses.jsonl"])
	if err != nil {
		return nil, nil, fmt.Errorf("demo: corpus/clauses.jsonl: %w", err)
	}
	v2, err := v2Questions(clauses)
	if err != nil {
		return nil, nil, err
	}
	for _, split := range []string{"dev", "test"} {
		part := inSplit(v2, split, func(q model.V2Question) string { return q.Split })
		if err := add("sections/v2-"+split+".jsonl", model.FormatV2Question, part); err != nil {
			return nil, nil, err
		}
	}

	// b-2
	anns, err := b2Annotations()
	if err != nil {
		return nil, nil, err
	}
	for _, split := range []string{"dev", "test"} {
		part := inSplit(anns, split, func(a model.B2) string { return a.Split })
		if err := add("sections/b2-"+split+".jsonl", model.FormatB2, part); err != nil {
			return nil, nil, err
		}
	}
	atoms := b2Atoms()
	if err := add("corpus/manifest.jsonl", model.FormatCorpusManifest, b2CorpusManifest()); err != nil {
		return nil, nil, err
	}
	if err := add("corpus/sources.jsonl", model.FormatSources, b2Registry()); err != nil {
		return nil, nil, err
	}
	if err := add("corpus/atoms.jsonl", model.FormatAtom, atoms); err != nil {
		return nil, nil, err
	}

	// seed 003
	rag, err := buildRAG()
	if err != nil {
		return nil, nil, err
	}
	for _, split := range []string{"dev", "test"} {
		part := inSplit(rag.Questions, split, func(q model.RAGQuestion) string { return q.Split })
		if err := add("sections/rag-"+split+".jsonl", model.FormatRAGQuestion, part); err != nil {
			return nil, nil, err
		}
	}
	for _, e := range []struct {
		name string
		f    model.Format
		recs any
	}{
		{"corpus/documents.jsonl", model.FormatRAGDocument, rag.Docs},
		{"corpus/pages.jsonl", model.FormatRAGPage, rag.Pages},
		{"corpus/chunks.jsonl", model.FormatRAGChunk, rag.Chunks},
		{"corpus/anchored_judgments.jsonl", model.FormatRAGJudgment, rag.Judgments},
	} {
		if err := add(e.name, e.f, e.recs); err != nil {
			return nil, nil, err
		}
	}

	// results of both runs
	var results []model.Result
	ir, err := itemResults(items)
	if err != nil {
		return nil, nil, err
	}
	results = append(results, ir...)
	results = append(results, b2Results(anns, atoms)...)
	results = append(results, v2Results(v2)...)
	sort.SliceStable(results, func(i, j int) bool { return results[i].Run < results[j].Run })
	if err := add("results.jsonl", model.FormatResult, results); err != nil {
		return nil, nil, err
	}
	rc, err := json.MarshalIndent(runConfig(), "", "  ")
	if err != nil {
		return nil, nil, err
	}
	files["run_config.json"], formats["run_config.json"] = append(rc, '\n'), model.FormatRunConfig

	// meta.json: version_hash over sections/, assets/, checkers/, corpus/
	sums := map[string]string{}
	for n, b := range files {
		sums[n] = sha256Hex(b)
	}
	vh := dataset.VersionHash(sums)
	for _, run := range RunNames {
		if err := add("runs/"+run+"/predictions.jsonl", model.FormatRAGPrediction, rag.Preds[run]); err != nil {
			return nil, nil, err
		}
		files["runs/"+run+"/config.yaml"] = ragConfigYAML(run, vh, sums)
		formats["runs/"+run+"/config.yaml"] = model.FormatRAGConfig
		if err := add("runs/"+run+"/human_grades.jsonl", model.FormatRAGGrades, demoGrades(run, rag)); err != nil {
			return nil, nil, err
		}
		if errs := demoErrors(run, rag); len(errs) > 0 {
			if err := add("runs/"+run+"/errors.jsonl", model.FormatRAGErrors, errs); err != nil {
				return nil, nil, err
			}
		}
	}
	meta := model.Meta{
		Name:        "eval752 demo: product-safety document QA",
		Description: "A made-up benchmark for trying eval752: product-safety questions of every eval752 item type (two real PNG assets), a b-2 multimodal retrieval set over six modalities, a seed-002 style regulation QA set and a seed-003 style RAG set with anchored evidence, plus the results of two runs (bm25, hybrid-rerank). Every name, figure and document is invented; safe to publish.",
		Version:     "1.0.0",
		License:     "CC0-1.0",
		VersionHash: vh,
	}
	mb, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	files["meta.json"], formats["meta.json"] = append(mb, '\n'), model.FormatMeta

	files["manifest.json"] = manifestJSON(files, formats)
	return files, formats, nil
}

// manifestJSON lists every entry but itself with its sha256, forced format
// and line count.
func manifestJSON(files map[string][]byte, formats map[string]model.Format) []byte {
	m := model.Manifest{FormatVersion: 1, Kind: "dataset"}
	for _, n := range sortedNames(files) {
		if n == "manifest.json" {
			continue
		}
		f := model.ManifestFile{Path: n, SHA256: sha256Hex(files[n]), Format: string(formats[n])}
		if strings.HasSuffix(n, ".jsonl") {
			f.Lines = bytes.Count(files[n], []byte("\n"))
		}
		m.Files = append(m.Files, f)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic("demo: manifest: " + err.Error()) // plain structs always marshal
	}
	return append(b, '\n')
}

func sortedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// writeZip writes files as a zip with sorted names, ModTime and Deflate.
func writeZip(w io.Writer, files map[string][]byte) error {
	zw := zip.NewWriter(w)
	for _, n := range sortedNames(files) {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate, Modified: ModTime}
		h.SetMode(0o644)
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := f.Write(files[n]); err != nil {
			return err
		}
	}
	return zw.Close()
}

// encodeJSONL writes a slice as one compact JSON object per line, with
// HTML characters unescaped (the text is meant to be read).
func encodeJSONL(recs any) ([]byte, error) {
	raw, err := json.Marshal(recs)
	if err != nil {
		return nil, err
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, r := range list {
		var c bytes.Buffer
		if err := json.Compact(&c, r); err != nil {
			return nil, err
		}
		b.Write(unescapeHTML(c.Bytes()))
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// unescapeHTML undoes encoding/json's \u003c, \u003e and \u0026.
func unescapeHTML(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(`\u003c`), []byte("<"))
	b = bytes.ReplaceAll(b, []byte(`\u003e`), []byte(">"))
	return bytes.ReplaceAll(b, []byte(`\u0026`), []byte("&"))
}

// decodeJSONL decodes every non-blank line of b into a T; the error names
// the first line that does not decode.
func decodeJSONL[T any](b []byte) ([]T, error) {
	var out []T
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return out, fmt.Errorf("line %d: %w", i+1, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// inSplit returns the records of recs whose split (as splitOf reads it) is
// split, in their order.
func inSplit[T any](recs []T, split string, splitOf func(T) string) []T {
	var part []T
	for _, r := range recs {
		if splitOf(r) == split {
			part = append(part, r)
		}
	}
	return part
}

func runConfig() model.RunConfig {
	seed := int64(42)
	return model.RunConfig{
		Runs: []model.RunInfo{
			{Name: "bm25", Description: "Baseline: BM25 over character bigrams (k1 = 1.2, b = 0.75), top 10 retrieved, top 5 passed to the generator.",
				Model: "demo-llm-7b (fictional)", Atoms: "corpus/atoms.jsonl",
				Params: map[string]any{"retrieval": "bm25", "top_k": 10, "context_top_n": 5, "temperature": 0}},
			{Name: "hybrid-rerank", Description: "Hybrid: BM25 fused with a dense retriever (weights 0.5/0.5) over the top 20, a cross-encoder reranker keeps 10, top 5 passed to the generator.",
				Model: "demo-llm-7b (fictional)", Atoms: "corpus/atoms.jsonl",
				Params: map[string]any{"retrieval": "hybrid", "fusion_top_k": 20, "rerank_top_n": 10, "context_top_n": 5, "dense_weight": 0.5, "lexical_weight": 0.5, "temperature": 0}},
		},
		RefusalPhrases: []string{RefusalPhrase, "I can't give medical advice"},
		Seed:           &seed,
	}
}

// ragConfigYAML writes a run's config.yaml in seed 003 §10's flat style.
func ragConfigYAML(run, versionHash string, sums map[string]string) []byte {
	hybrid := run != "bm25"
	val := func(a, b string) string {
		if hybrid {
			return b
		}
		return a
	}
	hex := strings.TrimPrefix(versionHash, "sha256:")
	kv := [][2]string{
		{"run_id", run},
		{"dataset_version", "eval752-demo-v1.0"},
		{"bundle_version_hash", hex},
		{"dataset_sha256", sums["sections/rag-test.jsonl"]},
		{"anchored_judgments_schema_version", "1"},
		{"judgment_set_version", "eval752-demo-judgments-v1.0"},
		{"judgment_set_sha256", sums["corpus/anchored_judgments.jsonl"]},
		{"corpus_manifest_sha256", sums["corpus/documents.jsonl"]},
		{"git_commit", "unknown"},
		{"docker_image_digest", "unknown"},
		{"database_schema_version", "demo-schema-1"},
		{"parser_version", "demo-parser-1.0"},
		{"parser_config_hash", "unknown"},
		{"anchor_resolver_version", "eval752-overlap-1"},
		{"anchor_resolution_sha256", "unknown"},
		{"qrels_sha256", "unknown"},
		{"ocr_model", "null"},
		{"chunk_size", val("45", "45")},
		{"chunk_overlap", "0"},
		{"chunk_profile_hash", sums["corpus/chunks.jsonl"]},
		{"embedding_model", val("null", "demo-embed-1024 (fictional)")},
		{"embedding_dimension", val("null", "1024")},
		{"embedding_index_namespace", val("null", "embedding_1024_v1")},
		{"embedding_api_mode", val("null", "openai-compatible")},
		{"embedding_profile_hash", val("null", "unknown")},
		{"embedding_endpoint_region", val("null", "demo-region")},
		{"embedding_endpoint_identity_hash", val("null", "unknown")},
		{"embedding_requested_revision", val("null", "unknown")},
		{"embedding_resolved_revision", val("null", "unknown")},
		{"embedding_cache_epoch", val("null", "1")},
		{"vector_distance", val("null", "cosine")},
		{"retrieval_mode", val("lexical", "hybrid")},
		{"retrieval_top_k", val("10", "20")},
		{"hnsw_ef_search", val("null", "100")},
		{"hnsw_iterative_scan", val("null", "strict_order")},
		{"ann_overfetch_k", val("null", "200")},
		{"lexical_analyzer_version", "cjk-bigram-1"},
		{"hybrid_fusion", val("disabled", "weighted")},
		{"hybrid_dense_weight", val("null", "0.5")},
		{"hybrid_lexical_weight", val("null", "0.5")},
		{"rrf_k", "null"},
		{"rerank_model", val("null", "demo-rerank (fictional)")},
		{"rerank_api_mode", val("null", "demo-rerank-api")},
		{"rerank_endpoint_identity_hash", val("null", "unknown")},
		{"rerank_resolved_revision", val("null", "unknown")},
		{"rerank_cache_epoch", val("null", "1")},
		{"rerank_top_n", val("null", "10")},
		{"context_top_n", "5"},
		{"max_context_tokens", "4000"},
		{"rerank_instruct_hash", val("null", "unknown")},
		{"generator_model", "demo-llm-7b (fictional)"},
		{"generator_api_mode", "openai-compatible"},
		{"generator_endpoint_identity_hash", "unknown"},
		{"generator_resolved_revision", "unknown"},
		{"generator_cache_epoch", "1"},
		{"provider_capability_fingerprint", "unknown"},
		{"prompt_hash", "unknown"},
		{"enable_thinking", "false"},
		{"enable_search", "false"},
		{"temperature", "0.0"},
		{"top_p", "1.0"},
		{"max_output_tokens", "512"},
		{"random_seed", "42"},
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# eval752 demo run %q (made up; seed 003 §10 config.yaml)\n", run)
	for _, p := range kv {
		fmt.Fprintf(&b, "%s: %s\n", p[0], p[1])
	}
	return b.Bytes()
}

// demoGrades are two blind reviewers' grades (seed 003 §7) of the run's
// answers to the first six answerable test questions it answered: rev-01
// gives 3 to a right-looking answer (one that contains the reference), 1
// otherwise; rev-02 agrees except on the second question, one grade lower,
// which rev-03 adjudicates to rev-01's grade. Three atomic facts per
// answer, all supported for grade 3, one for grade 1.
func demoGrades(run string, rag *ragSet) []model.RAGGrade {
	ref := map[string]model.RAGQuestion{}
	for _, q := range rag.Questions {
		ref[q.QID] = q
	}
	var out []model.RAGGrade
	n := 0
	for _, p := range rag.Preds[run] {
		q, ok := ref[p.QID]
		if !ok || !q.Answerable || q.Split != "test" || p.Answer == nil || n == 6 {
			continue
		}
		n++
		g := 1
		if q.ReferenceAnswer != nil && strings.Contains(*p.Answer, *q.ReferenceAnswer) {
			g = 3
		}
		sup := 1
		if g == 3 {
			sup = 3
		}
		mk := func(rev string, grade, supported int, adj string) model.RAGGrade {
			return model.RAGGrade{QID: p.QID, RunID: run, Reviewer: rev, ExpertGrade: &grade, FactsSupported: &supported, FactsTotal: intp(3), Adjudication: adj, RubricVersion: "demo-rubric-1"}
		}
		out = append(out, mk("rev-01", g, sup, "independent"))
		if n == 2 {
			out = append(out, mk("rev-02", max(g-1, 0), sup, "independent"), mk("rev-03", g, sup, "adjudicated"))
		} else {
			out = append(out, mk("rev-02", g, sup, "independent"))
		}
	}
	return out
}

func intp(v int) *int { return &v }

// demoErrors is a reviewer's errors.jsonl (seed 003 §9) for the reranking
// run: the first two answerable test questions whose answer misses the
// reference, attributed to GEN_OMISSION (evidence retrieved, answer leaves
// it out) with every field §9 lists.
func demoErrors(run string, rag *ragSet) []model.RAGError {
	if run != "hybrid-rerank" {
		return nil
	}
	ref := map[string]model.RAGQuestion{}
	for _, q := range rag.Questions {
		ref[q.QID] = q
	}
	var out []model.RAGError
	for _, p := range rag.Preds[run] {
		q, ok := ref[p.QID]
		if !ok || !q.Answerable || q.Split != "test" || p.Answer == nil || q.ReferenceAnswer == nil || strings.Contains(*p.Answer, *q.ReferenceAnswer) || len(out) == 2 {
			continue
		}
		out = append(out, model.RAGError{
			QID: p.QID, RunID: run, Code: "GEN_OMISSION", Source: "reviewed",
			Config: "runs/" + run + "/config.yaml", Expected: *q.ReferenceAnswer, Actual: *p.Answer,
			RetrievedChunkIDs: p.RetrievedChunkIDs, RerankedChunkIDs: p.RerankedChunkIDs, Answer: p.Answer, Citations: p.Citations,
			RootCause: "the reranked context holds the figure, the answer leaves it out (made up for the demo)",
			Severity:  "medium", SuggestedFix: "ask the generator to quote the figure with its unit",
		})
	}
	return out
}
