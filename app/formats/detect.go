// Package formats decides which eval752 format a file holds and checks each
// record against that format's JSON Schema (static/schemas/).
//
// Detection looks at content, not names: users rename files, and a bundle's
// sections/ may hold any item format. The first parseable records vote by
// their key sets; the file name only breaks ties. TREC files are told apart
// by their column shape. Any decision can be forced (--format, manifest.json
// files[].format).
package formats

import (
	"bytes"
	"encoding/json"
	"path"
	"strconv"
	"strings"

	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// RuleUnknown is reported when no format fits a file.
var RuleUnknown = finding.Register(finding.Rule{
	Code: "format.unknown", Severity: finding.Error, Family: "format",
	Description: "the format of a file could not be detected from its content",
	Source:      "spec §2 (inputs are auto-detected; a file may declare its format)",
	Hint:        "name the format with --format (e.g. --format b2.annotation), or in manifest.json files[].format inside a bundle",
})

// RuleBadForced is reported when a forced format name is not a known format.
var RuleBadForced = finding.Register(finding.Rule{
	Code: "format.invalid", Severity: finding.Error, Family: "format",
	Description: "a forced format name (--format or manifest files[].format) is not a known format",
	Source:      "spec §2",
	Hint:        "use one of the format ids listed by docs/formats.md, e.g. eval752.item, b2.annotation, rag.question",
})

// Known reports whether f is one of model.Formats.
func Known(f model.Format) bool {
	for _, k := range model.Formats {
		if k == f {
			return true
		}
	}
	return false
}

// SampleLines is how many parseable lines vote on a JSONL file's format.
const SampleLines = 50

// ZipMagic is the first four bytes of a zip archive (a local file header);
// an empty archive starts with the end-of-central-directory signature.
var (
	ZipMagic      = []byte("PK\x03\x04")
	ZipEmptyMagic = []byte("PK\x05\x06")
)

// Detection is the outcome of Detect, with the reason shown to a reviewer.
type Detection struct {
	Format model.Format
	Reason string
}

// Detect decides the format of a file from its name and its first bytes
// (head; complete is true when head is the whole file). It returns
// FormatUnknown when nothing fits.
//
// Order: zip magic → bundle; .yaml/.yml → rag.config; a whole-file JSON
// object or array → by keys; TREC column shape; JSONL key-set vote.
func Detect(name string, head []byte, complete bool) Detection {
	if bytes.HasPrefix(head, ZipMagic) || bytes.HasPrefix(head, ZipEmptyMagic) {
		return Detection{model.FormatBundle, "zip magic bytes"}
	}
	base := strings.ToLower(path.Base(strings.ReplaceAll(name, "\\", "/")))
	ext := path.Ext(base)
	if ext == ".yaml" || ext == ".yml" {
		return Detection{model.FormatRAGConfig, "YAML file name (seed 003 §10 config.yaml)"}
	}
	if base == "errors.jsonl" {
		return Detection{model.FormatRAGErrors, "file name errors.jsonl (seed 003 §10 runs/<run_id>/)"}
	}
	body := bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	records := sampleRecords(body, complete)
	// A .json file (or any file whose first record spans several lines) is a
	// whole-file JSON document.
	if ext == ".json" || (len(records) == 0 && startsWithJSON(body)) {
		if f, why := detectJSONFile(base, body, complete); f != model.FormatUnknown {
			return Detection{f, why}
		}
	}
	if f, why := detectTREC(body); f != model.FormatUnknown && len(records) == 0 {
		return Detection{f, why}
	}
	if len(records) > 0 {
		if f, why := voteRecords(base, records); f != model.FormatUnknown {
			return Detection{f, why}
		}
		// records no format's keys fit, in a file seed 003 §10 names:
		// the name decides, so the schema says what each record lacks
		// rather than the file being skipped as "no format"
		if f, ok := seed003Names[base]; ok {
			return Detection{f, "file name " + base + " (seed 003 §10); its records match no format's keys"}
		}
	}
	if len(records) == 0 && !startsWithJSON(body) {
		// columns too broken to vote on: a TREC file name decides, so its
		// bad lines are reported one by one rather than as "format unknown"
		switch {
		case ext == ".qrels" || strings.HasPrefix(base, "qrels"):
			return Detection{model.FormatTRECQrels, "file name " + base + " (TREC qrels)"}
		case ext == ".run" || ext == ".trec" || strings.HasPrefix(base, "run."):
			return Detection{model.FormatTRECRun, "file name " + base + " (TREC run)"}
		}
	}
	return Detection{model.FormatUnknown, "no format matched"}
}

// seed003Names are the JSONL file names of seed 003 §10's layout.
var seed003Names = map[string]model.Format{
	"questions.jsonl":          model.FormatRAGQuestion,
	"documents.jsonl":          model.FormatRAGDocument,
	"pages.jsonl":              model.FormatRAGPage,
	"chunks.jsonl":             model.FormatRAGChunk,
	"anchored_judgments.jsonl": model.FormatRAGJudgment,
	"predictions.jsonl":        model.FormatRAGPrediction,
}

// LooksJSON reports whether head (the start of a file) begins like JSON, so
// a file of no known format can still have its syntax errors located.
func LooksJSON(head []byte) bool {
	return startsWithJSON(bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF}))
}

func startsWithJSON(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// sampleRecords decodes up to SampleLines object lines of head; the last line
// is dropped when head was cut in the middle of the file.
func sampleRecords(head []byte, complete bool) []map[string]any {
	lines := bytes.Split(head, []byte("\n"))
	if !complete && len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	var out []map[string]any
	for _, l := range lines {
		l = bytes.TrimSpace(l)
		if len(l) == 0 || l[0] != '{' {
			continue
		}
		var v any
		if len(l) > bigRecord {
			v = topLevelKeys(l)
		} else {
			v, _ = jsonl.Decode(l)
		}
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
			if len(out) >= SampleLines {
				break
			}
		}
	}
	return out
}

// detectJSONFile handles manifest.json, meta.json, run_config.json and JSON
// arrays of records (seed 002's corpus/index.json clause index).
func detectJSONFile(base string, body []byte, complete bool) (model.Format, string) {
	switch base {
	case "manifest.json":
		return model.FormatManifest, "file name manifest.json (seed 004 bundle layout)"
	case "meta.json":
		return model.FormatMeta, "file name meta.json (seed 004 bundle layout)"
	case "run_config.json":
		return model.FormatRunConfig, "file name run_config.json (seed 004 bundle layout)"
	case "metrics.json":
		return model.FormatRAGMetrics, "file name metrics.json (seed 003 §10 runs/<run_id>/)"
	}
	if f, why := peerFormat(base, body, complete); f != model.FormatUnknown {
		return f, why
	}
	if !complete {
		// a long file of pretty-printed records: vote on the whole ones
		if recs := streamRecords(body, false); len(recs) > 0 {
			if f, why := voteRecords(base, recs); f != model.FormatUnknown {
				return f, "pretty-printed records: " + why
			}
		}
		return model.FormatUnknown, ""
	}
	v, _ := jsonl.Decode(bytes.TrimSpace(body))
	if v == nil {
		if recs := streamRecords(body, true); len(recs) > 0 {
			if f, why := voteRecords(base, recs); f != model.FormatUnknown {
				return f, "pretty-printed records: " + why
			}
		}
	}
	switch t := v.(type) {
	case map[string]any:
		if f := objectFileFormat(t); f != model.FormatUnknown {
			return f, "keys of the JSON object"
		}
		// a single record written as a pretty-printed JSON file
		if f, _ := voteRecords(base, []map[string]any{t}); f != model.FormatUnknown {
			return f, "keys of the JSON object"
		}
	case []any:
		var recs []map[string]any
		for _, e := range t {
			if m, ok := e.(map[string]any); ok {
				recs = append(recs, m)
				if len(recs) >= SampleLines {
					break
				}
			}
		}
		if f, why := voteRecords(base, recs); f != model.FormatUnknown {
			return f, "JSON array: " + why
		}
	}
	return model.FormatUnknown, ""
}

// streamRecords decodes the objects of a document of several pretty-printed
// JSON objects one after another (seed 004 prints its item examples so): the
// objects before the first syntax error or the cut of the head.
func streamRecords(body []byte, complete bool) []map[string]any {
	// the records before a syntax error still say what the file is
	vals, _, _, _ := jsonl.DecodeStreamAll(body)
	var out []map[string]any
	for _, v := range vals {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		out = append(out, m)
		if len(out) >= SampleLines {
			break
		}
	}
	return out
}

// objectFileFormat recognises bundle companions by their keys.
func objectFileFormat(m map[string]any) model.Format {
	has := func(k string) bool { _, ok := m[k]; return ok }
	switch {
	case has("files") || has("format_version") || (has("kind") && !has("name")):
		return model.FormatManifest
	case has("version_hash") || (has("name") && has("description")):
		return model.FormatMeta
	case has("runs") || has("refusal_phrases"):
		return model.FormatRunConfig
	}
	return model.FormatUnknown
}

// signature is what a record of one format looks like: all of must are
// present, none of not; each of extra adds a point.
type signature struct {
	format model.Format
	must   []string
	not    []string
	extra  []string
	names  []string // file base names that break a tie in this format's favour
	anyOf  []string // when set, at least one of these must be present too
}

// signatures are ordered from most to least specific; a record's vote goes
// to the signature with the most matching keys (must + extra), ties to the
// earlier one.
var signatures = []signature{
	// lm-evaluation-harness --log_samples lines (samples_<task>_*.jsonl)
	{model.FormatLMEvalSamples, []string{"doc_id", "doc"}, nil, []string{"target", "arguments", "resps", "filtered_resps", "doc_hash", "prompt_hash", "target_hash", "filter", "metrics"}, nil, nil},
	{model.FormatB2, []string{"query_id"}, nil, []string{"modality", "question", "answer", "answer_format", "gold", "scope", "as_of", "unanswerable", "origin", "split"}, nil, nil},
	{model.FormatRAGQuestion, []string{"qid", "query"}, []string{"grade", "retrieved_chunk_ids"}, []string{"answerable", "reference_answer", "gold_evidence_groups", "answer_aliases", "question_type", "numeric_tolerance"}, []string{"questions.jsonl"}, nil},
	{model.FormatVerdict, []string{"qid", "verdict"}, []string{"query", "grade", "retrieved_chunk_ids", "answer"}, []string{"reviewer", "at", "note", "passage"}, []string{"verdicts.jsonl"}, nil},
	{model.FormatRAGJudgment, []string{"qid", "grade"}, nil, []string{"schema_version", "reason", "doc_id", "document_version_id", "page_no", "char_start", "char_end", "evidence_sha256", "annotator_id", "adjudication_status"}, []string{"anchored_judgments.jsonl"}, nil},
	{model.FormatRAGGrades, []string{"qid", "expert_grade"}, nil, []string{"run_id", "reviewer", "facts_supported", "facts_total", "adjudication", "rubric_version"}, []string{"human_grades.jsonl", "grades.jsonl"}, nil},
	// a prediction may echo its query (many pipelines log it)
	{model.FormatRAGPrediction, []string{"qid"}, []string{"grade", "gold_evidence_groups", "reference_answer"}, []string{"retrieved_chunk_ids", "vector_scores", "reranked_chunk_ids", "rerank_scores", "answer", "citations", "latency_ms", "usage", "run_id"}, []string{"predictions.jsonl"},
		[]string{"retrieved_chunk_ids", "reranked_chunk_ids", "answer", "citations"}},
	{model.FormatRAGChunk, []string{"chunk_id"}, []string{"qid"}, []string{"doc_id", "document_version_id", "page_no", "char_start", "char_end", "bbox", "text", "searchable"}, []string{"chunks.jsonl"}, nil},
	{model.FormatRAGPage, []string{"doc_id", "page_no"}, []string{"qid", "chunk_id", "title"}, []string{"document_version_id", "char_start", "char_end", "text"}, []string{"pages.jsonl"}, nil},
	{model.FormatRAGDocument, []string{"doc_id"}, []string{"qid", "chunk_id", "page_no"}, []string{"title", "source_version", "raw_sha256", "license_id", "review_state", "redistribution_allowed", "confidentiality", "document_version_id", "authors", "publisher"}, []string{"documents.jsonl"}, nil},
	{model.FormatResult, []string{"item_id"}, nil, []string{"run", "response", "responses", "retrieved", "refused", "verdict", "passed", "latency_ms", "usage", "cost_usd", "error"}, []string{"results.jsonl"}, nil},
	{model.FormatAtom, []string{"atom_id"}, nil, []string{"source_id", "page", "block", "bbox", "t_start", "t_end", "path", "line_start", "line_end", "turn", "char_start", "char_end", "observed_at", "holder", "text"}, []string{"atoms.jsonl"}, nil},
	{model.FormatCorpusManifest, []string{"source_id", "revision"}, []string{"query_id", "atom_id"}, []string{"dataset", "path", "sha256", "modality", "license", "pages", "width", "height", "duration_s", "lines", "turns"}, []string{"manifest.jsonl"}, nil},
	// a hand-written manifest without source_id: "找到对应文件" by revision, path and sha256
	{model.FormatCorpusManifest, []string{"revision", "sha256"}, []string{"query_id", "atom_id", "annotation_source", "qid", "chunk_id", "doc_id"}, []string{"dataset", "path", "modality", "license", "pages"}, []string{"manifest.jsonl"}, nil},
	{model.FormatSources, []string{"annotation_source"}, nil, []string{"dataset", "license", "url"}, []string{"sources.jsonl", "corpus_sources.jsonl"}, nil},
	{model.FormatV2Question, []string{"id", "category"}, nil, []string{"question", "answer", "provenance", "joint", "split", "origin"}, nil, nil},
	{model.FormatItem, []string{"id", "type"}, nil, []string{"inputs", "choices", "answer", "checker", "criteria", "meta"}, nil, nil},
	{model.FormatItem, []string{"id", "inputs"}, nil, []string{"type", "choices", "answer", "checker", "criteria", "meta"}, nil, nil},
	{model.FormatClause, []string{"doc", "text"}, []string{"id", "category"}, []string{"clause", "doc_title"}, []string{"index.json", "clauses.jsonl", "index.jsonl"}, nil},
}

func (s signature) score(m map[string]any) int {
	for _, k := range s.must {
		if _, ok := m[k]; !ok {
			return -1
		}
	}
	for _, k := range s.not {
		if _, ok := m[k]; ok {
			return -1
		}
	}
	if len(s.anyOf) > 0 {
		found := false
		for _, k := range s.anyOf {
			if _, ok := m[k]; ok {
				found = true
				break
			}
		}
		if !found {
			return -1
		}
	}
	n := len(s.must)
	for _, k := range s.extra {
		if _, ok := m[k]; ok {
			n++
		}
	}
	return n
}

// voteRecords gives each record's vote to its best signature and returns the
// format with most votes; a tie goes to the format the file name suggests,
// then to the more specific signature.
func voteRecords(base string, recs []map[string]any) (model.Format, string) {
	votes := map[model.Format]int{}
	first := map[model.Format]int{}
	for _, m := range recs {
		best, bestScore := -1, -1
		for i, s := range signatures {
			if sc := s.score(m); sc > bestScore || (sc == bestScore && sc >= 0 && nameHint(s, base)) {
				best, bestScore = i, sc
			}
		}
		if best >= 0 {
			f := signatures[best].format
			if _, ok := first[f]; !ok {
				first[f] = best
			}
			votes[f]++
		}
	}
	var win model.Format
	for f, v := range votes {
		switch {
		case win == "" || v > votes[win]:
			win = f
		case v == votes[win]:
			wh, fh := nameHintFormat(win, base), nameHintFormat(f, base)
			if fh && !wh || fh == wh && first[f] < first[win] {
				win = f
			}
		}
	}
	if win == "" {
		return model.FormatUnknown, ""
	}
	return win, strconv.Itoa(votes[win]) + " of " + strconv.Itoa(len(recs)) + " sampled records have the keys of " + string(win)
}

func nameHint(s signature, base string) bool {
	for _, n := range s.names {
		if n == base {
			return true
		}
	}
	return false
}

func nameHintFormat(f model.Format, base string) bool {
	for _, s := range signatures {
		if s.format == f && nameHint(s, base) {
			return true
		}
	}
	return false
}

// detectTREC looks at the first data lines (ignoring '#' comments and a
// "qid ..." header as seed 003 §10 writes qrels.tsv): four fields with an
// integer last → qrels; six fields with an integer rank and a numeric score →
// run.
func detectTREC(body []byte) (model.Format, string) {
	var qrels, run, other int
	checked := 0
	for _, l := range bytes.Split(body, []byte("\n")) {
		fs := strings.Fields(string(l))
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if checked == 0 && IsQrelsHeader(fs) {
			continue
		}
		if checked == 0 && IsBEIRHeader(fs) {
			return model.FormatBEIRQrels, "header line query-id corpus-id score (BEIR / ir_datasets qrels TSV)"
		}
		checked++
		switch {
		case len(fs) == 4 && isInt(fs[3]):
			qrels++
		case len(fs) == 6 && isInt(fs[3]) && isFloat(fs[4]):
			run++
		default:
			other++
		}
		if checked >= SampleLines {
			break
		}
	}
	if checked == 0 {
		return model.FormatUnknown, ""
	}
	switch {
	case qrels > 0 && qrels >= run && qrels > other:
		return model.FormatTRECQrels, "lines have 4 whitespace-separated fields: qid iter docno grade"
	case run > 0 && run > qrels && run > other:
		return model.FormatTRECRun, "lines have 6 whitespace-separated fields: qid Q0 docno rank score tag"
	}
	return model.FormatUnknown, ""
}

// IsQrelsHeader reports whether fields are a header line such as seed 003's
// "qid 0 chunk_id relevance_grade" (a non-numeric grade column).
func IsQrelsHeader(fs []string) bool {
	return len(fs) == 4 && !isInt(fs[3]) && strings.EqualFold(fs[0], "qid")
}

// IsBEIRHeader reports whether fields are BEIR's qrels header
// "query-id corpus-id score".
func IsBEIRHeader(fs []string) bool {
	return len(fs) == 3 && strings.EqualFold(fs[0], "query-id") && strings.EqualFold(fs[1], "corpus-id") && strings.EqualFold(fs[2], "score")
}

func isInt(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

func isFloat(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// bigRecord is the line length above which detection reads only a record's
// top-level keys (all voting looks at) instead of decoding it: a 60 MiB
// first line is then not decoded twice, once to vote and once to read.
const bigRecord = 1 << 20

// topLevelKeys returns the keys of the JSON object a line starts with, each
// with a nil value, scanning strings and nested values without keeping
// them; nil when the line does not start as an object or a key is not a
// string. What follows the last key may be broken: the reader reports that.
func topLevelKeys(b []byte) map[string]any {
	if len(b) == 0 || b[0] != '{' {
		return nil
	}
	keys := map[string]any{}
	depth, i := 0, 0
	expectKey := false
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(b) {
				return keys
			}
			if depth == 1 && expectKey {
				var k string
				if json.Unmarshal(b[i:j+1], &k) != nil {
					return nil
				}
				keys[k] = nil
				expectKey = false
			}
			i = j + 1
			continue
		case c == '{' || c == '[':
			depth++
			if depth == 1 {
				expectKey = true
			}
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return keys
			}
		case c == ',' && depth == 1:
			expectKey = true
		}
		i++
	}
	return keys
}
