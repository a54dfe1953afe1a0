package formats

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"eval752/app/jsonl"
	"eval752/app/model"
	"eval752/static"
)

func TestEverySchemaCompiles(t *testing.T) {
	if err := CompileAll(); err != nil {
		t.Fatal(err)
	}
	// every JSON format has a schema; the non-JSON ones (bundle, TREC) do not
	for _, f := range model.Formats {
		want := f != model.FormatBundle && f != model.FormatTRECQrels && f != model.FormatTRECRun && f != model.FormatBEIRQrels
		if HasSchema(f) != want {
			t.Errorf("%s: HasSchema = %v, want %v", f, HasSchema(f), want)
		}
	}
	// and no stray file under static/schemas
	ents, _ := static.Schemas.ReadDir("schemas")
	for _, e := range ents {
		f := model.Format(strings.TrimSuffix(e.Name(), ".schema.json"))
		if !Known(f) && !slices.Contains(model.SubFormats, f) {
			t.Errorf("schema file %s names no format", e.Name())
		}
	}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name string
		head string
		want model.Format
	}{
		// seed 004 item (first example, one line)
		{"section-1.jsonl", `{"id": "q-001", "type": "mcq_single", "inputs": {"text": "法国的首都是？"}, "choices": ["伦敦","巴黎"], "answer": "巴黎", "checker": null, "criteria": null, "meta": {}}`, model.FormatItem},
		// item without type (still an item by id + inputs)
		{"x.jsonl", `{"id": "img-001", "inputs": {"text": "t"}, "answer": "a"}`, model.FormatItem},
		{"a.jsonl", `{"query_id": "x", "modality": "pdf", "question": "q", "answer": null, "gold": []}`, model.FormatB2},
		{"manifest.jsonl", `{"source_id": "s", "dataset": "d", "revision": "r", "path": "p", "sha256": "00"}`, model.FormatCorpusManifest},
		{"reg.jsonl", `{"dataset": "d", "annotation_source": "human"}`, model.FormatSources},
		{"v2.jsonl", `{"id": "D001", "category": "direct", "question": "q", "answer": "a", "provenance": [], "split": "dev", "origin": "v1"}`, model.FormatV2Question},
		{"index.jsonl", `{"doc": "law", "clause": "第五条", "text": "..."}`, model.FormatClause},
		{"q.jsonl", `{"qid": "q1", "query": "x", "answerable": true, "gold_evidence_groups": []}`, model.FormatRAGQuestion},
		{"d.jsonl", `{"doc_id": "d1", "title": "t", "review_state": "CLOUD_APPROVED"}`, model.FormatRAGDocument},
		{"p.jsonl", `{"doc_id": "d1", "page_no": 3, "char_start": 0, "char_end": 10}`, model.FormatRAGPage},
		{"c.jsonl", `{"chunk_id": "c1", "doc_id": "d1", "text": "x"}`, model.FormatRAGChunk},
		{"j.jsonl", `{"schema_version": 1, "qid": "q1", "grade": 3, "doc_id": "d1"}`, model.FormatRAGJudgment},
		{"pr.jsonl", `{"qid": "q1", "retrieved_chunk_ids": ["c1"], "answer": "x"}`, model.FormatRAGPrediction},
		{"r.jsonl", `{"run": "a", "item_id": "q-001", "response": "巴黎"}`, model.FormatResult},
		{"at.jsonl", `{"atom_id": "a1", "source_id": "s", "page": 1}`, model.FormatAtom},
		{"config.yaml", "chunk_size: 512\n", model.FormatRAGConfig},
		{"qrels.tsv", "qid 0 chunk_id relevance_grade\nq001 0 chk_a 3\n", model.FormatTRECQrels},
		{"qrels", "101 0 d01 1\n101 0 d02 0\n", model.FormatTRECQrels},
		{"run", "# comment\n101 Q0 d01 1 100.00 runA\n", model.FormatTRECRun},
		{"manifest.json", `{"format_version": 1}`, model.FormatManifest},
		{"meta.json", `{"name": "x"}`, model.FormatMeta},
		{"run_config.json", `{}`, model.FormatRunConfig},
		{"whatever.json", `{"name": "x", "version_hash": "sha256:00"}`, model.FormatMeta},
		{"index.json", `[{"doc": "law", "clause": "第一条", "text": "t"}]`, model.FormatClause},
		{"b.zip", "PK\x03\x04rest", model.FormatBundle},
		// pretty-printed single record
		{"rec.json", "{\n  \"qid\": \"q1\",\n  \"query\": \"x\"\n}", model.FormatRAGQuestion},
		// unknown
		{"notes.txt", "hello world\n", model.FormatUnknown},
		{"x.jsonl", `{"foo": 1}`, model.FormatUnknown},
	}
	for _, c := range cases {
		d := Detect(c.name, []byte(c.head), true)
		if d.Format != c.want {
			t.Errorf("Detect(%s, %.40q) = %q (%s), want %q", c.name, c.head, d.Format, d.Reason, c.want)
		}
	}
}

// TestDetectVotes: a majority of lines decides; bad lines do not.
func TestDetectVotes(t *testing.T) {
	head := strings.Join([]string{
		`{"qid": "q1", "query": "a", "answerable": true}`,
		`not json`,
		`{"qid": "q2", "query": "b", "answerable": false}`,
		`{"doc_id": "d1", "title": "stray"}`,
		`{"qid": "q3", "query": "c"`, // cut: head not complete
	}, "\n")
	if d := Detect("x.jsonl", []byte(head), false); d.Format != model.FormatRAGQuestion {
		t.Errorf("got %q", d.Format)
	}
}

func decode(t *testing.T, s string) any {
	t.Helper()
	v, p := jsonl.Decode([]byte(s))
	if len(p) != 0 {
		t.Fatal(p)
	}
	return v
}

// TestValidateWalksAllLeaves: a record with four independent problems gets
// four findings, each at its own instance location (never only the first leaf).
func TestValidateWalksAllLeaves(t *testing.T) {
	v := decode(t, `{"query_id": "x", "modality": "pdf ", "question": "q", "answer": null, "answer_format": "none",
		"gold": [{"source_id": 5, "region": {"page": "5"}}], "scope": {"session": null, "scenario": "s"},
		"as_of": "2024-01-01T00:00:00+00:00", "unanswerable": true,
		"origin": {"dataset": "d", "revision": "r", "item": "i", "license": "l"}}`)
	fs := Validate(model.FormatB2, v, "a.jsonl", 7, "")
	got := map[string]string{}
	for _, f := range fs {
		got[f.Code+" "+f.Pointer] = f.Message
		if f.Line != 7 || f.Path != "a.jsonl" {
			t.Errorf("located at %s:%d", f.Path, f.Line)
		}
	}
	want := []string{
		"schema.enum /modality",
		"schema.type /gold/0/source_id",
		// region.page "5" is not the schema's: region shapes depend on the
		// modality and are the b2.region-shape rule's (one defect, one finding)
		// a missing field is pointed at where it belongs
		"schema.required /scope/holder",
		"schema.required /split",
	}
	for _, w := range want {
		if _, ok := got[w]; !ok {
			t.Errorf("missing finding %q; got %v", w, got)
		}
	}
	if len(fs) != len(want) {
		t.Errorf("%d findings, want %d: %v", len(fs), len(want), got)
	}
	if m := got["schema.enum /modality"]; m != `"modality" must be one of pdf, image, ui_screenshot, video, code, conversation; got "pdf "` {
		t.Errorf("enum message: %s", m)
	}
	if m := got["schema.required /split"]; m != `missing required field "split"` {
		t.Errorf("required message: %s", m)
	}
}

func TestValidatePrefixAndShape(t *testing.T) {
	// retrieved items are either an id string or an object with an id
	v := decode(t, `{"run": "a", "item_id": "x", "retrieved": ["ok", {"id": "ok2"}, 5]}`)
	fs := Validate(model.FormatResult, v, "r.json", 0, "/3")
	if len(fs) != 1 || fs[0].Code != "schema.shape" || fs[0].Pointer != "/3/retrieved/2" {
		t.Errorf("findings %v", fs)
	}
}

func TestValidateNumbersLossless(t *testing.T) {
	// grade 3.0 is an integer for JSON Schema, 2.5 is not; page_no 0 is out
	// of the ≥ 1 range. (The 0–3 range of a grade, seed 003 §7, is the
	// rag.judgment-grade rule's, so 4 and -1 pass the schema.)
	for _, c := range []struct {
		field, value string
		n            int
	}{{"grade", "3", 0}, {"grade", "3.0", 0}, {"grade", "4", 0}, {"grade", "-1", 0}, {"grade", "2.5", 1},
		{"page_no", "1.0", 0}, {"page_no", "0", 1}} {
		js := `{"schema_version": 1, "qid": "q", "doc_id": "d", "` + c.field + `": ` + c.value + `}`
		if c.field != "grade" {
			js = `{"schema_version": 1, "qid": "q", "doc_id": "d", "grade": 1, "` + c.field + `": ` + c.value + `}`
		}
		v := decode(t, js)
		if fs := Validate(model.FormatRAGJudgment, v, "j", 1, ""); len(fs) != c.n {
			t.Errorf("%s %s: %v", c.field, c.value, fs)
		}
	}
	_ = json.Number("1")
}

// TestDetectPrettyPrintedStream: records printed over several lines one
// after another (seed 004's examples as printed) vote like JSONL lines, also
// when the head was cut inside a later record.
func TestDetectPrettyPrintedStream(t *testing.T) {
	body := "{\n  \"id\": \"q-001\",\n  \"type\": \"mcq_single\",\n  \"inputs\": {\"text\": \"t\"}\n}\n{\n  \"id\": \"img-001\",\n  \"type\": \"freeform\"\n}\n"
	if d := Detect("items.jsonl", []byte(body), true); d.Format != model.FormatItem {
		t.Errorf("complete: %+v", d)
	}
	if d := Detect("items.jsonl", []byte(body[:len(body)-10]), false); d.Format != model.FormatItem {
		t.Errorf("cut head: %+v", d)
	}
}

// A seed 003 §10 file whose records fit no format's keys (a misspelt
// "query_text") is read as the format its name gives, so the schema says
// what each record lacks; under another name it stays unknown.
func TestDetectSeed003Name(t *testing.T) {
	head := []byte(`{"qid":"q1","query_text":"铜品位？","answerable":true}` + "\n")
	if d := Detect("exp/eval/questions.jsonl", head, true); d.Format != model.FormatRAGQuestion {
		t.Errorf("questions.jsonl: %v (%s), want rag.question", d.Format, d.Reason)
	}
	if d := Detect("exp/eval/notes.jsonl", head, true); d.Format != model.FormatUnknown {
		t.Errorf("notes.jsonl: %v (%s), want unknown", d.Format, d.Reason)
	}
}

func TestDetectVerdicts(t *testing.T) {
	head := []byte(`{"qid": "R12", "verdict": "answerable", "reviewer": "li", "at": "2026-12-01T10:00:00Z", "note": "pat-inj-02 gives the barrel temperatures"}
{"qid": "R13", "verdict": "refuse-ok", "reviewer": "li", "at": "2026-12-01T10:05:00Z"}
`)
	if d := Detect("review.jsonl", head, true); d.Format != model.FormatVerdict {
		t.Errorf("verdict lines detected as %q (%s)", d.Format, d.Reason)
	}
	bad := map[string]any{"qid": "R12", "verdict": "maybe", "reviewer": " ", "at": "yesterday", "extra": 1}
	got := map[string]bool{}
	for _, f := range Validate(model.FormatVerdict, bad, "v.jsonl", 1, "") {
		got[f.Code+" "+f.Pointer] = true
	}
	for _, w := range []string{"schema.enum /verdict", "schema.pattern /reviewer", "schema.format /at", "schema.other "} {
		if !got[w] {
			t.Errorf("missing %q in %v", w, got)
		}
	}
}
